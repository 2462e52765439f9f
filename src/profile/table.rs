//! A profile as documentation: one row per dimension of the dimension table
//! (`dimension.rs`).

use std::fmt;

use super::Profile;
use super::dimension;

impl Profile {
    /// The profile's dimensions as (dimension, description) rows, in a fixed order.
    pub fn rows(&self) -> Vec<(&'static str, String)> {
        dimension::table()
            .into_iter()
            .map(|row| (row.label, (row.text)(self)))
            .collect()
    }

    /// Several profiles side by side as a Markdown table, one column per profile.
    pub fn markdown_table(profiles: &[&Profile]) -> String {
        let mut out = String::from("| dimension |");
        for profile in profiles {
            out.push_str(&format!(" {} |", profile.name));
        }
        out.push_str("\n|---|");
        out.push_str(&"---|".repeat(profiles.len()));
        out.push('\n');
        let columns: Vec<Vec<(&str, String)>> = profiles.iter().map(|p| p.rows()).collect();
        for (i, (dimension, _)) in columns
            .first()
            .map(Vec::as_slice)
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            out.push_str(&format!("| {dimension} |"));
            for column in &columns {
                out.push_str(&format!(" {} |", column[i].1.replace('|', "\\|")));
            }
            out.push('\n');
        }
        out
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "profile {} ({})", self.name, self.provenance)?;
        for (dimension, description) in self.rows() {
            writeln!(f, "  {dimension:<17} {description}")?;
        }
        Ok(())
    }
}
