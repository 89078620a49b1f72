//! Cards and actions in their text forms (spec.md sections 1 and 2).

use std::fmt;

/// Suits in index order: clubs, diamonds, hearts, spades.
pub const SUITS: [char; 4] = ['C', 'D', 'H', 'S'];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Card {
    /// 2..=14, the ace high.
    pub rank: u8,
    /// 0..=3, an index into `SUITS`.
    pub suit: u8,
}

impl Card {
    /// Reads `AS`, `10H`, `2c`, `Td` (readers SHOULD accept lower case and `T` for ten).
    pub fn parse(text: &str) -> Option<Card> {
        let text = text.trim().to_ascii_uppercase();
        let suit_char = text.chars().last()?;
        let suit = suit_from_char(suit_char)?;
        let rank = match &text[..text.len() - 1] {
            "A" => 14,
            "K" => 13,
            "Q" => 12,
            "J" => 11,
            "10" | "T" => 10,
            digit => match digit.parse::<u8>() {
                Ok(n @ 2..=9) => n,
                _ => return None,
            },
        };
        Some(Card { rank, suit })
    }

    /// The card's index 0-51, which is also its action code.
    pub fn index(self) -> u8 {
        13 * self.suit + (self.rank - 2)
    }

    /// Game pips: A=4, K=3, Q=2, J=1, 10=10, others 0.
    pub fn pips(self) -> u32 {
        match self.rank {
            14 => 4,
            13 => 3,
            12 => 2,
            11 => 1,
            10 => 10,
            _ => 0,
        }
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rank = match self.rank {
            14 => "A".to_string(),
            13 => "K".to_string(),
            12 => "Q".to_string(),
            11 => "J".to_string(),
            n => n.to_string(),
        };
        write!(f, "{rank}{}", SUITS[self.suit as usize])
    }
}

pub fn suit_from_char(c: char) -> Option<u8> {
    SUITS.iter().position(|&s| s == c.to_ascii_uppercase()).map(|i| i as u8)
}

/// An action as the server lists it in `legal`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Pass,
    Bid(u8),
    Play(Card),
}

impl Action {
    pub fn parse(text: &str) -> Option<Action> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("pass") {
            return Some(Action::Pass);
        }
        let (word, arg) = text.split_once(' ')?;
        match word.to_ascii_lowercase().as_str() {
            "bid" => arg.trim().parse().ok().filter(|n| (1..=4).contains(n)).map(Action::Bid),
            "play" => Card::parse(arg).map(Action::Play),
            _ => None,
        }
    }

    /// The action's code (section 2): cards 0-51, pass 52, bid N 52 + N.
    pub fn code(self) -> u8 {
        match self {
            Action::Play(card) => card.index(),
            Action::Pass => 52,
            Action::Bid(n) => 52 + n,
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Pass => write!(f, "pass"),
            Action::Bid(n) => write!(f, "bid {n}"),
            Action::Play(card) => write!(f, "play {card}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn card_text_and_index() {
        for (text, index) in [("2C", 0), ("AC", 12), ("2D", 13), ("AS", 51), ("10H", 34)] {
            let card = Card::parse(text).unwrap();
            assert_eq!(card.index(), index);
            assert_eq!(card.to_string(), text);
        }
        assert_eq!(Card::parse("td"), Card::parse("10D"));
        for bad in ["", "1S", "11S", "AX", "S", "10"] {
            assert_eq!(Card::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn action_text_and_code() {
        assert_eq!(Action::parse("pass").unwrap().code(), 52);
        assert_eq!(Action::parse("bid 4").unwrap().code(), 56);
        assert_eq!(Action::parse("play 10H").unwrap().to_string(), "play 10H");
        assert_eq!(Action::parse("bid 5"), None);
    }
}
