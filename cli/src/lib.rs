//! The `memory-conformance` command's library: the bundled backends, the behaviour report (and
//! its section on replicas behind a load balancer), the gate of a bridged backend, its JUnit
//! output and recall snapshots, and the profile presets by name, so tests can run them over
//! gates and files of their own.

pub mod backends;
pub mod gate;
pub mod junit;
pub mod locomo;
pub mod profiles;
pub mod recall;
pub mod replicas;
pub mod report;
pub mod snapshot;
pub mod subject;
