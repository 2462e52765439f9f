use std::error::Error;
use std::fmt;
use std::path::Path;

use rusqlite::{Connection, OpenFlags, OptionalExtension};
use serde_json::{Map, Value};

use super::node::Node;
use super::{SessionsError, event};
use crate::Session;

/// Reads every session stored in ADK Python's session database (the SQLite file of its
/// `DatabaseSessionService`: tables `sessions`, `events`, `app_states`, `user_states`),
/// optionally only those of one app name and user id. Schema version 1 (google-adk 1.19 and
/// later) keeps each event as JSON in `event_data`; version 0 (earlier releases) keeps the
/// event's id, author, timestamp (naive, read as UTC) and content (JSON text) in columns, and
/// is read from those.
///
/// The file is opened read-only. A session's state is its own state with the app state under
/// `app:` keys and the user state under `user:` keys, as ADK Python merges them; events come in
/// timestamp order. Returns the sessions and the number of parts skipped (see
/// [`LoadedSessions::skipped_parts`](super::LoadedSessions::skipped_parts)).
///
/// ```no_run
/// use memory_conformance::inspect::Evidence;
/// use memory_conformance::sessions::read_session_database;
/// use memory_conformance::inspect::Conclusion;
/// use memory_conformance::profile::Profile;
/// let (sessions, _skipped) =
///     read_session_database("sessions.db".as_ref(), Some("support"), None).unwrap();
/// let diagnosis = Evidence::from_session_store(sessions)
///     .diagnose("support", "u-42", "Where's order 4417?", &Profile::reference());
/// assert_eq!(diagnosis.conclusion(), Conclusion::NotIndexedAndCannotMatch);
/// ```
///
/// # Errors
///
/// When the file cannot be opened, is not such a database, or an event's JSON does not hold an
/// event: the error names the file, the row and the JSON path.
pub fn read_session_database(
    file: &Path,
    app_name: Option<&str>,
    user_id: Option<&str>,
) -> Result<(Vec<Session>, usize), DatabaseError> {
    let at = |message: String| DatabaseError {
        file: file.display().to_string(),
        message,
    };
    if !file.is_file() {
        return Err(at("no such file".to_owned()));
    }
    let db = Connection::open_with_flags(file, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .map_err(|err| at(format!("cannot open as SQLite: {err}")))?;
    let sql = |err: rusqlite::Error| at(format!("not an ADK Python session database: {err}"));
    let columns: Vec<String> = db
        .prepare("SELECT name FROM pragma_table_info('events')")
        .and_then(|mut stmt| stmt.query_map([], |row| row.get(0))?.collect())
        .map_err(sql)?;
    if columns.is_empty() {
        return Err(at(
            "not an ADK Python session database: it has no `events` table".to_owned(),
        ));
    }
    let has = |name: &str| columns.iter().any(|c| c == name);
    // Schema version 1 (google-adk 1.19 and later) keeps each event as JSON in `event_data`;
    // version 0 (earlier) keeps its fields in columns, the content as JSON text.
    let version_0 = !has("event_data");
    if version_0
        && !["id", "author", "timestamp", "content"]
            .iter()
            .all(|c| has(c))
    {
        return Err(at(format!(
            "the `events` table has neither `event_data` (schema version 1, google-adk 1.19 and \
             later) nor `id`, `author`, `timestamp` and `content` (version 0) (columns: {}): \
             export the sessions as JSON and read them with --session",
            columns.join(", ")
        )));
    }
    let events_sql = if version_0 {
        "SELECT id, json_object('id', id, 'author', author, \
             'timestamp', replace(timestamp, ' ', 'T') || 'Z', 'content', json(content)) \
         FROM events WHERE app_name = ?1 AND user_id = ?2 AND session_id = ?3 \
         ORDER BY timestamp, id"
    } else {
        "SELECT id, event_data FROM events \
         WHERE app_name = ?1 AND user_id = ?2 AND session_id = ?3 \
         ORDER BY timestamp, id"
    };
    let mut stmt = db
        .prepare(
            "SELECT app_name, user_id, id, state FROM sessions \
             WHERE (?1 IS NULL OR app_name = ?1) AND (?2 IS NULL OR user_id = ?2) \
             ORDER BY create_time, app_name, user_id, id",
        )
        .map_err(sql)?;
    let rows: Vec<(String, String, String, Option<String>)> = stmt
        .query_map([app_name, user_id], |row| {
            Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?))
        })
        .and_then(Iterator::collect)
        .map_err(sql)?;
    let mut skipped = 0;
    let mut sessions = Vec::new();
    for (app, user, id, state) in rows {
        let row = format!("session {app:?}/{user:?}/{id:?}");
        let mut session = Session::new(app.clone(), user.clone(), id.clone());
        session.state = state_of(state.as_deref(), &format!("{row}, column state")).map_err(&at)?;
        let app_state: Option<String> = db
            .query_row(
                "SELECT state FROM app_states WHERE app_name = ?1",
                [&app],
                |r| r.get(0),
            )
            .optional()
            .or_else(ignore_missing_table)
            .map_err(sql)?;
        let user_state: Option<String> = db
            .query_row(
                "SELECT state FROM user_states WHERE app_name = ?1 AND user_id = ?2",
                [&app, &user],
                |r| r.get(0),
            )
            .optional()
            .or_else(ignore_missing_table)
            .map_err(sql)?;
        for (prefix, state) in [("app:", app_state), ("user:", user_state)] {
            let shared =
                state_of(state.as_deref(), &format!("{prefix} state of {row}")).map_err(&at)?;
            for (key, value) in shared {
                session.state.insert(format!("{prefix}{key}"), value);
            }
        }
        let mut events = db.prepare(events_sql).map_err(sql)?;
        // One row at a time: a long session is never held as JSON text.
        let rows = events
            .query_map([&app, &user, &id], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, Option<String>>(1)?))
            })
            .map_err(sql)?;
        for row_data in rows {
            let (event_id, json) = row_data.map_err(sql)?;
            let Some(json) = json else { continue };
            let value: Value = serde_json::from_str(&json).map_err(|err| {
                at(format!(
                    "event {event_id:?} of {row}: event_data is not JSON: {err}"
                ))
            })?;
            let parsed =
                event(&Node::root(&value), &mut skipped).map_err(|err: SessionsError| {
                    at(format!("event {event_id:?} of {row}, event_data {err}"))
                })?;
            session.events.push(parsed);
        }
        sessions.push(session);
    }
    Ok((sessions, skipped))
}

fn ignore_missing_table(err: rusqlite::Error) -> Result<Option<String>, rusqlite::Error> {
    if err.to_string().contains("no such table") {
        Ok(None)
    } else {
        Err(err)
    }
}

fn state_of(text: Option<&str>, what: &str) -> Result<Map<String, Value>, String> {
    let Some(text) = text else {
        return Ok(Map::new());
    };
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(Value::Null) => Ok(Map::new()),
        Ok(_) => Err(format!("{what}: expected a JSON object")),
        Err(err) => Err(format!("{what}: not JSON: {err}")),
    }
}

/// Why a session database could not be read: the file, and what was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DatabaseError {
    file: String,
    message: String,
}

impl fmt::Display for DatabaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.file, self.message)
    }
}

impl Error for DatabaseError {}
