//! Manifest records: the `ACTLUTM1` records (and name fields) the probe met, read once
//! their bytes are in the buffer.

use crate::limits::FINDING_COST;
use crate::manifest::{Record, RECORD_BYTES};
use crate::report::Kind;

use super::{take_ready, Scanner};

impl Scanner<'_> {
    /// Reads the manifest records whose bytes are all in the buffer (see
    /// [`crate::manifest`]); a record found by its name field must name a
    /// known table.
    pub(super) fn read_records(&mut self) {
        let end = self.end();
        // A record with its marker intact is met twice, by its marker and
        // by its name field: it is read (and kept) once.
        self.record_at.sort_unstable();
        self.record_at.dedup_by_key(|r| r.0);
        let ready = |(p, _): (u64, bool)| p + RECORD_BYTES as u64 <= end;
        for (p, by_name) in take_ready(&mut self.record_at, ready) {
            if p < self.base {
                continue;
            }
            if let Some(r) = Record::parse(&self.buf[(p - self.base) as usize..], p, by_name) {
                // Without its marker, a name field is a record only when a
                // known table's hash follows it: a string constant padded
                // with zeros before other data is not one (firmware holds
                // such bytes: a table's name, then a declaration).
                let known = self.index.knows_name(&r.name)
                    && self.index.needles.iter().any(|n| n.sha256 == r.sha256);
                if (r.marked || known)
                    && self.keep(Kind::Record, p)
                    && self.spend(FINDING_COST, Kind::Record, p)
                {
                    self.records.push(r);
                }
            }
        }
    }
}
