//! The backends `--backend NAME` names: a table of names and the functions that build their
//! gates. The command knows the kit's own reference; a tool with more backends runs the same
//! commands over a table of its own.

use memory_conformance::conformance::Gate;

/// A backend's name and the function that builds its gate.
type Entry = (&'static str, fn() -> Gate);

/// Named backends, in order, each gate built only when asked for: building one can load a
/// model or reach a server.
///
/// ```
/// use memory_conformance_cli::Backends;
///
/// let gate = Backends::KIT.gate("reference").unwrap();
/// assert_eq!(gate.subject().backend(), "reference");
/// assert!(Backends::KIT.gate("sqlite-fts6").is_err());
/// ```
#[derive(Clone, Copy)]
pub struct Backends(&'static [Entry]);

impl Backends {
    /// The kit's own backend: `reference`, the kit's
    /// [`InMemoryMemoryService`](memory_conformance::InMemoryMemoryService).
    pub const KIT: Self = Self(&[("reference", Gate::reference)]);

    /// The backends of `table`, each a name and the function that builds its gate, in the
    /// order they are listed and reported in.
    pub const fn new(table: &'static [Entry]) -> Self {
        Self(table)
    }

    /// Every backend's gate, in order.
    pub fn all(self) -> Vec<Gate> {
        self.0.iter().map(|(_, gate)| gate()).collect()
    }

    /// The gates of the backends `names`, built in order; every one when `names` is empty.
    /// `Err` names a backend that is not in the table.
    pub fn among(self, names: &[String]) -> Result<Vec<Gate>, String> {
        if let Some(unknown) = names
            .iter()
            .find(|wanted| !self.names().any(|name| name == wanted.as_str()))
        {
            return Err(self.unknown(unknown));
        }
        Ok(self
            .0
            .iter()
            .filter(|(name, _)| names.is_empty() || names.iter().any(|wanted| wanted == name))
            .map(|(_, gate)| gate())
            .collect())
    }

    /// The names, in order.
    pub fn names(self) -> impl Iterator<Item = &'static str> {
        self.0.iter().map(|(name, _)| *name)
    }

    /// The gate of the backend `name`, and only that one built; `Err` names the backends, or
    /// says why the backend cannot run here.
    pub fn gate(self, name: &str) -> Result<Gate, String> {
        let (_, gate) = self
            .0
            .iter()
            .find(|(known, _)| *known == name)
            .ok_or_else(|| self.unknown(name))?;
        let gate = gate();
        match gate.unavailable_reason() {
            Some(why) => Err(format!("backend {name:?} cannot run here: {why}")),
            None => Ok(gate),
        }
    }

    /// The error for a name that is not in the table, naming the ones that are.
    fn unknown(self, name: &str) -> String {
        format!(
            "no bundled backend is called {name:?}; the bundled backends are: {}",
            self.names().collect::<Vec<_>>().join(", ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use memory_conformance::InMemoryMemoryService;
    use memory_conformance::conformance::Subject;
    use memory_conformance::profile::Profile;

    fn elsewhere() -> Gate {
        Gate::new(Subject::new("elsewhere", Profile::reference(), || async {
            InMemoryMemoryService::new()
        }))
        .unavailable("install it with `pip install elsewhere`")
    }

    const TWO: Backends =
        Backends::new(&[("reference", Gate::reference), ("elsewhere", elsewhere)]);

    #[test]
    fn the_command_names_the_kit_s_reference_only() {
        assert_eq!(Backends::KIT.names().collect::<Vec<_>>(), ["reference"]);
        let err = Backends::KIT.gate("sqlite-fts5").unwrap_err();
        assert_eq!(
            err,
            "no bundled backend is called \"sqlite-fts5\"; the bundled backends are: reference"
        );
    }

    #[test]
    fn a_backend_that_cannot_run_here_says_why() {
        assert!(TWO.gate("reference").is_ok());
        let err = TWO.gate("elsewhere").unwrap_err();
        assert_eq!(
            err,
            "backend \"elsewhere\" cannot run here: install it with `pip install elsewhere`"
        );
    }

    #[test]
    fn a_choice_of_backends_is_built_in_table_order_and_an_unknown_one_refused() {
        let chosen = TWO
            .among(&["elsewhere".into(), "reference".into()])
            .unwrap();
        let names: Vec<&str> = chosen.iter().map(|g| g.subject().backend()).collect();
        assert_eq!(names, ["reference", "elsewhere"]);
        assert_eq!(TWO.among(&[]).unwrap().len(), 2);
        assert_eq!(TWO.all().len(), 2);
        let err = TWO.among(&["reference".into(), "nope".into()]).unwrap_err();
        assert_eq!(
            err,
            "no bundled backend is called \"nope\"; the bundled backends are: reference, elsewhere"
        );
    }
}
