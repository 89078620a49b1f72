//! An example Setback bot in Rust with the standard library only, written from spec.md.
//!
//! Usage: `setback-bot [HOST PORT TABLE [SEAT [NAME]]]`; missing arguments come from
//! `SETBACK_HOST`, `SETBACK_PORT`, `SETBACK_TABLE`, `SETBACK_SEAT` and `SETBACK_NAME`
//! (what `setback match` gives a `cmd:` bot, spec.md section 20).
//!
//! It says hello as a bot, joins its table ready, answers every `decide` with a legal
//! action, tries another when one is refused, answers pings, says `ready` after each
//! `game_over`, and when the connection drops or the server says `goodbye` it reconnects
//! with backoff and takes its seat back with its token.

mod cards;
mod json;
mod strategy;

use json::{obj, parse, Json};
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::process::ExitCode;
use std::time::{Duration, Instant};

const VERSION: &str = "1.2";
/// Server lines are at most 1 MiB (section 6); anything longer is a broken connection.
const MAX_SERVER_LINE: u64 = 1 << 20;
/// The request `id`s this bot puts on its own messages.
const HELLO_ID: i64 = 1;
const JOIN_ID: i64 = 2;
/// `act`s are numbered from here, so a refusal names the action it refuses.
const FIRST_ACT_ID: i64 = 100;
/// Give up when the server has been unreachable this long in a row.
const GIVE_UP_AFTER: Duration = Duration::from_secs(600);

struct Config {
    host: String,
    port: u16,
    table: String,
    seat: Option<i64>,
    name: String,
}

fn config() -> Result<Config, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let pick = |i: usize, var: &str| args.get(i).cloned().or_else(|| std::env::var(var).ok()).filter(|s| !s.is_empty());
    let host = pick(0, "SETBACK_HOST").unwrap_or_else(|| "127.0.0.1".to_string());
    let port = pick(1, "SETBACK_PORT").unwrap_or_else(|| "7411".to_string());
    let port = port.parse().map_err(|_| format!("not a port: {port:?}"))?;
    let table = pick(2, "SETBACK_TABLE").ok_or("no table: give TABLE or set SETBACK_TABLE")?;
    let seat = match pick(3, "SETBACK_SEAT") {
        Some(s) => Some(s.parse().map_err(|_| format!("not a seat: {s:?}"))?),
        None => None,
    };
    // A valid name (section 7): 1-40 printable characters.
    let name: String = pick(4, "SETBACK_NAME").unwrap_or_else(|| "rust-bot".to_string());
    let name: String = name.trim().chars().filter(|c| !c.is_control()).take(40).collect();
    let name = if name.trim().is_empty() { "rust-bot".to_string() } else { name };
    Ok(Config { host, port, table, seat, name })
}

/// What the bot keeps across connections: its token, and the decision it owes.
#[derive(Default)]
struct Bot {
    /// The token of the seat (from `welcome`, then `joined`); it takes the seat back.
    token: Option<String>,
    /// The pending decision: its `request` as the server wrote it, and the view.
    pending: Option<Pending>,
    next_act_id: i64,
}

struct Pending {
    request: Json,
    view: strategy::View,
    /// Actions sent for this request: (act id, action text).
    sent: Vec<(i64, String)>,
    /// Actions the server refused for it (`illegal_action`).
    refused: Vec<String>,
    resynced: bool,
}

/// How a connection ended.
enum End {
    /// Closed, reset, timed out or said goodbye: connect again.
    Reconnect(String),
    /// Nothing more to do here (a fatal refusal, or the seat cannot be had).
    Stop(String),
}

struct Conn {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
    /// `SETBACK_TRACE=1`: copy every line sent and received to stderr.
    trace: bool,
}

impl Conn {
    fn send(&mut self, message: &Json) -> Result<(), End> {
        let mut line = message.to_text();
        if self.trace {
            eprintln!("-> {line}");
        }
        line.push('\n');
        self.writer.write_all(line.as_bytes()).map_err(|e| End::Reconnect(format!("write failed: {e}")))
    }

    /// The next non-empty line, or how the connection ended.
    fn read(&mut self) -> Result<String, End> {
        let mut buf = Vec::new();
        loop {
            buf.clear();
            let n = (&mut self.reader).take(MAX_SERVER_LINE + 1).read_until(b'\n', &mut buf).map_err(|e| {
                match e.kind() {
                    ErrorKind::WouldBlock | ErrorKind::TimedOut => End::Reconnect("the server went silent".into()),
                    _ => End::Reconnect(format!("read failed: {e}")),
                }
            })?;
            if n == 0 {
                return Err(End::Reconnect("the server closed the connection".into()));
            }
            if buf.last() != Some(&b'\n') && n as u64 > MAX_SERVER_LINE {
                return Err(End::Reconnect("a server line over 1 MiB".into()));
            }
            let line = String::from_utf8_lossy(&buf);
            let line = line.trim();
            if !line.is_empty() {
                if self.trace {
                    eprintln!("<- {line}");
                }
                return Ok(line.to_string());
            }
        }
    }
}

fn log(text: &str) {
    eprintln!("setback-bot: {text}");
}

impl Bot {
    fn connect(&self, cfg: &Config) -> Result<Conn, String> {
        let addr = (cfg.host.as_str(), cfg.port)
            .to_socket_addrs()
            .map_err(|e| format!("cannot resolve {}: {e}", cfg.host))?
            .next()
            .ok_or_else(|| format!("no address for {}", cfg.host))?;
        let stream = TcpStream::connect_timeout(&addr, Duration::from_secs(5)).map_err(|e| e.to_string())?;
        let _ = stream.set_nodelay(true);
        // The server pings after 20 s of silence (section 15): hearing nothing for much
        // longer than that means the connection is dead.
        stream.set_read_timeout(Some(Duration::from_secs(90))).map_err(|e| e.to_string())?;
        stream.set_write_timeout(Some(Duration::from_secs(30))).map_err(|e| e.to_string())?;
        let writer = stream.try_clone().map_err(|e| e.to_string())?;
        let trace = std::env::var("SETBACK_TRACE").is_ok_and(|v| !v.is_empty() && v != "0");
        Ok(Conn { reader: BufReader::new(stream), writer, trace })
    }

    /// One connection, from hello until it ends.
    fn session(&mut self, cfg: &Config, conn: &mut Conn, connected: &mut bool) -> End {
        self.pending = None;
        let mut hello = vec![
            ("type", "hello".into()),
            ("id", HELLO_ID.into()),
            ("version", VERSION.into()),
            ("name", cfg.name.as_str().into()),
            ("kind", "bot".into()),
        ];
        if let Some(token) = &self.token {
            hello.push(("token", token.as_str().into()));
        }
        if let Err(end) = conn.send(&obj(hello)) {
            return end;
        }
        loop {
            let line = match conn.read() {
                Ok(line) => line,
                Err(end) => return end,
            };
            let message = match parse(&line) {
                Ok(m) => m,
                Err(e) => {
                    log(&format!("ignoring an unreadable line ({e})"));
                    continue;
                }
            };
            if let Err(end) = self.handle(cfg, conn, &message, connected) {
                return end;
            }
        }
    }

    fn join(&self, cfg: &Config, conn: &mut Conn) -> Result<(), End> {
        let mut join = vec![("type", "join".into()), ("id", JOIN_ID.into()), ("table", cfg.table.as_str().into())];
        if let Some(seat) = cfg.seat {
            join.push(("seat", seat.into()));
        }
        join.push(("ready", true.into()));
        conn.send(&obj(join))
    }

    fn handle(&mut self, cfg: &Config, conn: &mut Conn, msg: &Json, connected: &mut bool) -> Result<(), End> {
        match msg.get("type").as_str().unwrap_or("") {
            "welcome" => {
                *connected = true;
                let had_token = self.token.is_some();
                if let Some(token) = msg.get("token").as_str() {
                    self.token = Some(token.to_string());
                }
                // With a token, the server seats us itself (`joined`), or says `bad_token`.
                if !had_token {
                    self.join(cfg, conn)?;
                }
            }
            "joined" => {
                let back = msg.get("id").is_null();
                if let Some(token) = msg.get("token").as_str() {
                    self.token = Some(token.to_string());
                }
                log(&format!(
                    "seated at {} seat {}{}",
                    msg.get("table").as_str().unwrap_or("?"),
                    msg.get("seat").as_i64().unwrap_or(-1),
                    if back { " (taken back)" } else { "" }
                ));
                if back {
                    // We may have missed a game_over while away: be ready for the next game
                    // (during a game this only marks us ready for the one after it).
                    conn.send(&obj(vec![("type", "ready".into())]))?;
                }
            }
            "decide" => {
                let view = match strategy::View::from_json(msg.get("view")) {
                    Ok(v) => v,
                    Err(e) => {
                        // Play the first listed action (the lowest code), as the clock would.
                        log(&format!("a decide I cannot read ({e}); answering its first legal action"));
                        let Some(first) = msg.get("view").get("legal").items().first().cloned() else {
                            return Ok(());
                        };
                        let act = [("type", "act".into()), ("request", msg.get("request").clone()), ("action", first)];
                        return conn.send(&obj(act.into()));
                    }
                };
                let request = msg.get("request").clone();
                // The same request again (after a resync): what was refused stays refused.
                let (refused, resynced) = match self.pending.take() {
                    Some(p) if p.request == request => (p.refused, p.resynced),
                    _ => (vec![], false),
                };
                self.pending = Some(Pending { request, view, sent: vec![], refused, resynced });
                self.act(conn)?;
            }
            "ping" => {
                let mut pong = vec![("type", "pong".into())];
                if !msg.get("nonce").is_null() {
                    pong.push(("nonce", msg.get("nonce").clone()));
                }
                conn.send(&obj(pong))?;
            }
            "game_over" => {
                self.pending = None;
                let outcome = msg.get("outcome");
                log(&format!(
                    "game {} over: side {} won ({})",
                    msg.get("game").as_i64().unwrap_or(-1),
                    outcome.get("winner").as_i64().unwrap_or(-1),
                    outcome.get("reason").as_str().unwrap_or("?")
                ));
                conn.send(&obj(vec![("type", "ready".into())]))?;
            }
            "goodbye" => {
                return Err(End::Reconnect(format!(
                    "the server said goodbye ({})",
                    msg.get("reason").as_str().unwrap_or("no reason")
                )));
            }
            "error" => self.error(cfg, conn, msg)?,
            // table, table_closed, snapshot, event, chat, ok, pong, left, ...: nothing to do.
            _ => {}
        }
        Ok(())
    }

    /// Sends the best action for the pending request that the server has not refused.
    fn act(&mut self, conn: &mut Conn) -> Result<(), End> {
        let Some(p) = self.pending.as_mut() else { return Ok(()) };
        match strategy::choose(&p.view, &p.refused) {
            Some(action) => {
                let id = FIRST_ACT_ID + self.next_act_id;
                self.next_act_id += 1;
                p.sent.push((id, action.clone()));
                conn.send(&obj(vec![
                    ("type", "act".into()),
                    ("id", id.into()),
                    ("request", p.request.clone()),
                    ("action", action.into()),
                ]))
            }
            None if !p.resynced => {
                // Every listed action was refused: the view must be out of date.
                p.resynced = true;
                log("every legal action was refused; asking for the table again");
                conn.send(&obj(vec![("type", "resync".into())]))
            }
            None => Ok(()),
        }
    }

    fn error(&mut self, cfg: &Config, conn: &mut Conn, msg: &Json) -> Result<(), End> {
        let code = msg.get("code").as_str().unwrap_or("");
        let text = msg.get("message").as_str().unwrap_or("");
        let id = msg.get("id").as_i64();
        let fatal = msg.get("fatal").as_bool().unwrap_or(false);
        match code {
            "illegal_action" => {
                // The request stands (section 12): mark the action refused, try another.
                let refused = self
                    .pending
                    .as_ref()
                    .and_then(|p| p.sent.iter().find(|(i, _)| Some(*i) == id).map(|(_, a)| a.clone()));
                if let (Some(action), Some(p)) = (refused, self.pending.as_mut()) {
                    log(&format!("{action:?} refused ({text}); trying another"));
                    p.refused.push(action);
                    return self.act(conn);
                }
            }
            "stale_request" | "not_your_turn" => {
                // The clock played for us, or the turn moved on: wait for the next decide.
                if self.pending.as_ref().is_some_and(|p| p.sent.iter().any(|(i, _)| Some(*i) == id)) {
                    self.pending = None;
                }
            }
            "bad_token" if id == Some(HELLO_ID) => {
                // The token holds no seat any more; welcome gave a new one. Join afresh.
                log("my token holds no seat; joining again");
                self.join(cfg, conn)?;
            }
            "bad_token" => {
                return Err(End::Stop("another connection took my seat back with its token".into()));
            }
            "version_unsupported" | "bad_password" => {
                return Err(End::Stop(format!("the server refused me: {code} ({text})")));
            }
            "no_such_table" | "seat_taken" | "table_full" | "game_in_progress" | "already_seated"
                if id == Some(JOIN_ID) =>
            {
                return Err(End::Stop(format!("cannot join {}: {code} ({text})", cfg.table)));
            }
            _ => log(&format!("server error {code}: {text}")),
        }
        if fatal {
            return Err(End::Reconnect(format!("fatal error {code}")));
        }
        Ok(())
    }
}

/// A little randomness for the backoff, so that many bots do not reconnect in step.
fn jitter(range_ms: u64) -> u64 {
    let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    let mut x = t ^ (u64::from(std::process::id()) << 32) ^ 0x9E37_79B9_7F4A_7C15;
    x ^= x >> 33;
    x = x.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    x ^= x >> 33;
    x % range_ms.max(1)
}

fn main() -> ExitCode {
    let cfg = match config() {
        Ok(c) => c,
        Err(e) => {
            log(&e);
            eprintln!("usage: setback-bot [HOST PORT TABLE [SEAT [NAME]]] (or SETBACK_HOST, SETBACK_PORT, ...)");
            return ExitCode::from(2);
        }
    };
    let mut bot = Bot::default();
    let mut backoff = Duration::from_millis(100);
    let mut unreachable_since: Option<Instant> = None;
    loop {
        let reason = match bot.connect(&cfg) {
            Ok(mut conn) => {
                let mut connected = false;
                let end = bot.session(&cfg, &mut conn, &mut connected);
                if connected {
                    // We were welcomed: the server is up, start the backoff over.
                    unreachable_since = None;
                    backoff = Duration::from_millis(100);
                }
                match end {
                    End::Stop(reason) => {
                        log(&reason);
                        return ExitCode::from(1);
                    }
                    End::Reconnect(reason) => reason,
                }
            }
            Err(e) => format!("cannot connect to {}:{}: {e}", cfg.host, cfg.port),
        };
        let since = *unreachable_since.get_or_insert_with(Instant::now);
        if since.elapsed() > GIVE_UP_AFTER {
            log(&format!("{reason}; giving up after {} s", GIVE_UP_AFTER.as_secs()));
            return ExitCode::from(1);
        }
        let wait = backoff + Duration::from_millis(jitter(backoff.as_millis() as u64 / 2 + 1));
        log(&format!("{reason}; reconnecting in {} ms", wait.as_millis()));
        std::thread::sleep(wait);
        backoff = (backoff * 2).min(Duration::from_secs(5));
    }
}
