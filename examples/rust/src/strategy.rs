//! Choosing an action from a `decide`'s view (spec.md section 10). Stateless: the view
//! holds the hand so far, so nothing is remembered between decisions.
//!
//! Bidding counts the points the hand would likely win in its best suit; play wins
//! tricks with the cheapest card that does it and keeps point cards out of the
//! opponents' tricks.

use crate::cards::{Action, Card};
use crate::json::Json;

/// One seat's view, with the fields this bot uses.
pub struct View {
    pub seat: usize,
    pub players: usize,
    /// `None`: cutthroat, each seat its own side; `Some(t)`: seat s on side s mod t.
    pub teams: Option<usize>,
    pub dealer: usize,
    pub hand: Vec<Card>,
    /// This hand's bids in order: seat and amount, `None` for a pass.
    pub bids: Vec<(usize, Option<u8>)>,
    pub trump: Option<u8>,
    /// The trick in play, in playing order.
    pub trick: Vec<(usize, Card)>,
    /// Every card of this hand's finished tricks.
    pub played: Vec<Card>,
    /// The legal actions: the server's text and what it means.
    pub legal: Vec<(String, Action)>,
}

fn seat_of(value: &Json) -> Option<usize> {
    value.as_i64().and_then(|n| usize::try_from(n).ok())
}

/// A card from a view: its text form, or (read leniently) an object with a `card`.
fn card_of(value: &Json) -> Option<Card> {
    match value {
        Json::Str(text) => Card::parse(text),
        other => other.get("card").as_str().and_then(Card::parse),
    }
}

impl View {
    pub fn from_json(view: &Json) -> Result<View, String> {
        let rules = view.get("rules");
        let seat = seat_of(view.get("seat")).ok_or("the view has no seat")?;
        let players = seat_of(rules.get("players")).unwrap_or(4).max(2);
        let teams = seat_of(rules.get("teams")).filter(|&t| t >= 1);
        let hand = view.get("hand").items().iter().filter_map(card_of).collect();
        let bids = view
            .get("bids")
            .items()
            .iter()
            .filter_map(|b| {
                let amount = b.get("bid").as_i64().and_then(|n| u8::try_from(n).ok());
                Some((seat_of(b.get("seat"))?, amount))
            })
            .collect();
        let trump = view.get("trump").as_str().and_then(|s| s.chars().next()).and_then(crate::cards::suit_from_char);
        let trick =
            view.get("trick").items().iter().filter_map(|p| Some((seat_of(p.get("seat"))?, card_of(p)?))).collect();
        let played =
            view.get("tricks").items().iter().flat_map(|t| t.get("cards").items().iter().filter_map(card_of)).collect();
        let mut legal = Vec::new();
        for item in view.get("legal").items() {
            let text = item.as_str().ok_or("a legal action that is not a string")?;
            let action = Action::parse(text).ok_or_else(|| format!("an unreadable legal action {text:?}"))?;
            legal.push((text.to_string(), action));
        }
        Ok(View {
            seat,
            players,
            teams,
            dealer: seat_of(view.get("dealer")).unwrap_or(0),
            hand,
            bids,
            trump,
            trick,
            played,
            legal,
        })
    }

    fn side(&self, seat: usize) -> usize {
        match self.teams {
            Some(t) => seat % t,
            None => seat,
        }
    }

    fn is_partner(&self, seat: usize) -> bool {
        self.side(seat) == self.side(self.seat)
    }

    /// Seats on other sides than ours.
    fn opponents(&self) -> usize {
        (0..self.players).filter(|&s| !self.is_partner(s)).count()
    }

    /// Cards nobody has shown: in other hands, or undealt.
    fn unseen(&self) -> Vec<Card> {
        let shown: Vec<Card> =
            self.hand.iter().chain(&self.played).copied().chain(self.trick.iter().map(|&(_, c)| c)).collect();
        (0..4u8)
            .flat_map(|suit| (2..=14u8).map(move |rank| Card { rank, suit }))
            .filter(|c| !shown.contains(c))
            .collect()
    }
}

/// The action to take, avoiding those the server already refused for this request.
/// `None` when every legal action was refused (the caller then asks for a fresh view).
pub fn choose(view: &View, refused: &[String]) -> Option<String> {
    let open: Vec<&(String, Action)> = view.legal.iter().filter(|(text, _)| !refused.contains(text)).collect();
    if open.is_empty() {
        return None;
    }
    let plays: Vec<Card> = open
        .iter()
        .filter_map(|(_, a)| match a {
            Action::Play(card) => Some(*card),
            _ => None,
        })
        .collect();
    let wanted = if plays.is_empty() { choose_bid(view, &open) } else { Action::Play(choose_card(view, &plays)) };
    // Send the server's own text for the action chosen; should it somehow not be open,
    // the lowest code, as the clock's fallback would.
    let fallback = open.iter().min_by_key(|(_, a)| a.code());
    open.iter().find(|(_, a)| *a == wanted).or(fallback).map(|(text, _)| text.clone())
}

// ---- bidding ----

/// The points a hand would likely win with `suit` as trump, taking the lead as pitcher.
pub fn estimate(hand: &[Card], suit: u8, opponents: usize, sides: usize) -> f64 {
    let mut trumps: Vec<u8> = hand.iter().filter(|c| c.suit == suit).map(|c| c.rank).collect();
    if trumps.is_empty() {
        return 0.0;
    }
    trumps.sort_unstable_by(|a, b| b.cmp(a));
    // Chance that one card we cannot see was dealt to an opponent (46 cards we cannot see,
    // six in each opponent's hand).
    let p_opp = (6.0 * opponents as f64 / 46.0).min(1.0);
    let p_free = 1.0 - p_opp;
    let top = trumps[0];
    let bottom = trumps[trumps.len() - 1];
    let len = trumps.len() as f64;

    // High and Low go to whoever was dealt them: they are ours unless an opponent holds
    // a better card.
    let high = p_free.powi(i32::from(14 - top));
    let low = p_free.powi(i32::from(bottom - 2));
    // Jack: held and guarded by higher trumps or length, or caught with high trumps.
    let higher_than_jack = trumps.iter().filter(|&&r| r > 11).count() as f64;
    let jack = if trumps.contains(&11) {
        (0.45 + 0.15 * higher_than_jack + 0.08 * (len - 1.0)).min(0.95)
    } else {
        (p_opp * 0.2 * higher_than_jack).min(0.5)
    };
    // Game: leading and drawing trumps wins tricks; tens and aces are the pips.
    let tens = hand.iter().filter(|c| c.rank == 10).count() as f64;
    let aces = hand.iter().filter(|c| c.rank == 14 && c.suit != suit).count() as f64;
    let mut game = 0.1 + 0.08 * len + 0.12 * tens + 0.05 * aces;
    if sides > 2 {
        game *= 0.75;
    }
    high + low + jack + game.min(0.8)
}

/// The suit our hand is strongest in, and its estimate.
pub fn best_suit(view: &View) -> (u8, f64) {
    let sides = view.teams.unwrap_or(view.players);
    (0..4u8).map(|s| (s, estimate(&view.hand, s, view.opponents(), sides))).fold((0, -1.0), |best, cur| {
        if cur.1 > best.1 {
            cur
        } else {
            best
        }
    })
}

fn choose_bid(view: &View, open: &[&(String, Action)]) -> Action {
    let can_pass = open.iter().any(|(_, a)| *a == Action::Pass);
    let mut bids: Vec<u8> = open
        .iter()
        .filter_map(|(_, a)| match a {
            Action::Bid(n) => Some(*n),
            _ => None,
        })
        .collect();
    bids.sort_unstable();
    let Some(&lowest) = bids.first() else {
        return Action::Pass;
    };
    if !can_pass {
        // The forced dealer: the cheapest bid.
        return Action::Bid(lowest);
    }
    let (_, est) = best_suit(view);
    let want: u8 = if est >= 3.5 {
        4
    } else if est >= 2.2 {
        3
    } else if est >= 1.35 {
        2
    } else if est >= 1.1 {
        1
    } else {
        0
    };
    // The highest bid so far and who made it.
    let high = view.bids.iter().filter_map(|&(s, b)| b.map(|b| (b, s))).max();
    if let Some((amount, bidder)) = high {
        // Leave a partner's bid alone unless we are clearly stronger.
        if view.is_partner(bidder) && want <= amount + 1 {
            return Action::Pass;
        }
    }
    let chosen = if view.seat == view.dealer {
        // Last to bid: the cheapest bid that takes it is enough.
        bids.iter().copied().find(|&n| n <= want)
    } else {
        // Others still bid after us: bid what the hand is worth, to keep them out.
        bids.iter().copied().filter(|&n| n <= want).max()
    };
    chosen.map_or(Action::Pass, Action::Bid)
}

// ---- play ----

/// Does `card` beat `best`, the card winning the trick so far?
fn beats(card: Card, best: Card, trump: Option<u8>) -> bool {
    if Some(card.suit) == trump && Some(best.suit) != trump {
        return true;
    }
    card.suit == best.suit && card.rank > best.rank
}

/// What losing this card costs us: point cards and trumps are dear, small side cards cheap.
fn cost(card: Card, trump: Option<u8>) -> u32 {
    if Some(card.suit) == trump {
        let extra = match card.rank {
            11 => 100, // the Jack point
            10 => 50,  // ten pips for Game
            _ => 0,
        };
        200 + u32::from(card.rank) + extra
    } else {
        10 * card.pips() + u32::from(card.rank)
    }
}

fn cheapest(cards: &[Card], trump: Option<u8>) -> Card {
    *cards.iter().min_by_key(|c| (cost(**c, trump), c.index())).expect("a card to play")
}

/// No card we cannot see would beat `card` (so, played now, it wins unless a trump comes).
fn is_master(card: Card, unseen: &[Card]) -> bool {
    !unseen.iter().any(|c| c.suit == card.suit && c.rank > card.rank)
}

fn choose_card(view: &View, cards: &[Card]) -> Card {
    match view.trump {
        None => pitch(view, cards),
        Some(_) if view.trick.is_empty() => lead(view, cards),
        Some(_) => follow(view, cards),
    }
}

/// The first lead of the hand: it names trump. Lead the best suit's top card when it is
/// a likely winner (the ace or king), else its cheapest card, keeping the jack and ten.
fn pitch(view: &View, cards: &[Card]) -> Card {
    let (suit, _) = best_suit(view);
    let mut mine: Vec<Card> = cards.iter().copied().filter(|c| c.suit == suit).collect();
    if mine.is_empty() {
        return cheapest(cards, None);
    }
    mine.sort_by_key(|c| std::cmp::Reverse(c.rank));
    if mine[0].rank >= 13 {
        mine[0]
    } else {
        cheapest(&mine, Some(suit))
    }
}

fn lead(view: &View, cards: &[Card]) -> Card {
    let trump = view.trump;
    let unseen = view.unseen();
    let trumps_out = unseen.iter().filter(|c| Some(c.suit) == trump).count();
    let mut my_trumps: Vec<Card> = cards.iter().copied().filter(|c| Some(c.suit) == trump).collect();
    my_trumps.sort_by_key(|c| std::cmp::Reverse(c.rank));
    // Draw trumps with a card nobody can beat, while others may still hold some.
    if let Some(&top) = my_trumps.first() {
        if trumps_out > 0 && is_master(top, &unseen) {
            return top;
        }
    }
    let side: Vec<Card> = cards.iter().copied().filter(|c| Some(c.suit) != trump).collect();
    if side.is_empty() {
        return cheapest(cards, trump);
    }
    // With the trumps all out, a master side card wins for sure: take its pips.
    if trumps_out == 0 {
        if let Some(&sure) = side.iter().filter(|c| is_master(**c, &unseen)).max_by_key(|c| c.pips()) {
            return sure;
        }
    }
    cheapest(&side, trump)
}

fn follow(view: &View, cards: &[Card]) -> Card {
    let trump = view.trump;
    let unseen = view.unseen();
    let (mut best_seat, mut best) = view.trick[0];
    for &(seat, card) in &view.trick[1..] {
        if beats(card, best, trump) {
            best_seat = seat;
            best = card;
        }
    }
    let last = view.trick.len() + 1 == view.players;
    let trumps_out = unseen.iter().any(|c| Some(c.suit) == trump);
    // A winning card that nothing unseen can beat (no higher card of its suit, and for a
    // side card no trump left out either).
    let holds = |card: Card| is_master(card, &unseen) && (Some(card.suit) == trump || !trumps_out);
    let value: u32 =
        view.trick.iter().map(|&(_, c)| c.pips() + if Some(c.suit) == trump && c.rank == 11 { 5 } else { 0 }).sum();

    if view.is_partner(best_seat) {
        if last || holds(best) {
            // Our side takes this trick: give it our points, but keep the top trumps.
            return *cards
                .iter()
                .max_by_key(|c| {
                    let jack = Some(c.suit) == trump && c.rank == 11;
                    let power = Some(c.suit) == trump && c.rank > 11;
                    let score = c.pips() as i32 + if jack { 5 } else { 0 } - if power { 100 } else { 0 };
                    (score, std::cmp::Reverse(c.rank))
                })
                .expect("a card to play");
        }
        return cheapest(cards, trump);
    }

    let mut winners: Vec<Card> = cards.iter().copied().filter(|&c| beats(c, best, trump)).collect();
    // Do not risk the jack of trump where a higher trump may still come.
    winners.retain(|&c| !(Some(c.suit) == trump && c.rank == 11) || last || is_master(c, &unseen));
    winners.sort_by_key(|&c| (Some(c.suit) == trump, c.rank));
    if let Some(&cheap) = winners.first() {
        if !last && value >= 10 {
            // A ten is at stake: win it with a card that will hold, if we have one.
            if let Some(&sure) = winners.iter().find(|&&c| holds(c)) {
                return sure;
            }
        }
        let is_trump = Some(cheap.suit) == trump;
        if !is_trump || value > 0 || cheap.rank < 10 {
            return cheap;
        }
    }
    cheapest(cards, trump)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse;

    fn view(text: &str) -> View {
        View::from_json(&parse(text).unwrap()).unwrap()
    }

    #[test]
    fn the_forced_dealer_bids_and_a_weak_hand_passes() {
        let forced = view(
            r#"{"seat":3,"dealer":3,"rules":{"players":4},"hand":["2C","5D","7H","9S","3D","4H"],
            "bids":[{"seat":0,"bid":null},{"seat":1,"bid":null},{"seat":2,"bid":null}],"legal":["bid 1","bid 2","bid 3","bid 4"]}"#,
        );
        assert_eq!(choose(&forced, &[]).as_deref(), Some("bid 1"));
        let weak = view(
            r#"{"seat":0,"dealer":3,"rules":{"players":4},"hand":["5C","6D","7H","9S","8D","4H"],
            "bids":[],"legal":["pass","bid 1","bid 2","bid 3","bid 4"]}"#,
        );
        assert_eq!(choose(&weak, &[]).as_deref(), Some("pass"));
        let strong = view(
            r#"{"seat":0,"dealer":3,"rules":{"players":4},"hand":["AS","KS","JS","2S","10S","4H"],
            "bids":[],"legal":["pass","bid 1","bid 2","bid 3","bid 4"]}"#,
        );
        assert!(matches!(choose(&strong, &[]).as_deref(), Some("bid 3" | "bid 4")));
    }

    #[test]
    fn the_pitcher_leads_its_best_suit_and_a_refused_action_is_not_sent_again() {
        let pitch = view(
            r#"{"seat":1,"dealer":0,"rules":{"players":3},"hand":["AH","2H","JH","5C","9D","KS"],"trump":null,
            "trick":[],"tricks":[],"bids":[],"legal":["play 5C","play 9D","play 2H","play JH","play AH","play KS"]}"#,
        );
        assert_eq!(choose(&pitch, &[]).as_deref(), Some("play AH"));
        let second = choose(&pitch, &["play AH".to_string()]).unwrap();
        assert_ne!(second, "play AH");
        let all: Vec<String> = pitch.legal.iter().map(|(t, _)| t.clone()).collect();
        assert_eq!(choose(&pitch, &all), None);
    }

    #[test]
    fn a_follower_wins_cheaply_and_feeds_a_partner() {
        let over = view(
            r#"{"seat":2,"dealer":0,"rules":{"players":4,"teams":2},"hand":["QD","KD","3C"],"trump":"S",
            "trick":[{"seat":1,"card":"10D"}],"tricks":[],"legal":["play QD","play KD"]}"#,
        );
        assert_eq!(choose(&over, &[]).as_deref(), Some("play QD"));
        let feed = view(
            r#"{"seat":3,"dealer":0,"rules":{"players":4,"teams":2},"hand":["10C","2C","AS"],"trump":"S",
            "trick":[{"seat":0,"card":"9D"},{"seat":1,"card":"KS"},{"seat":2,"card":"5D"}],"tricks":[],
            "legal":["play 2C","play 10C","play AS"]}"#,
        );
        assert_eq!(choose(&feed, &[]).as_deref(), Some("play 10C"));
    }
}
