//! Declaration records: the candidates the probe met (a marker, or a known
//! header, hash or name field), judged once their bytes are in the buffer
//! ([`crate::declared`]).

use crate::declared::MAX_DECLARATION_BYTES;
use crate::limits::FINDING_COST;

use super::Scanner;

impl Scanner<'_> {
    /// Judges the declaration candidates whose record and table are in the
    /// buffer (all of them at the end, `last`). Each judgement hashes its
    /// table: it is charged to the verification budget, and a flood of
    /// records stops the scan at the budget or at [`crate::MAX_FOUND`]
    /// findings kept ([`crate::Report::too_many`]).
    pub(crate) fn read_declared(&mut self, last: bool) {
        const REACH: u64 = (MAX_DECLARATION_BYTES + (1 << 17)) as u64;
        let end = self.end();
        self.declared_at.sort_unstable();
        self.declared_at.dedup();
        let mut waiting = Vec::new();
        for p in core::mem::take(&mut self.declared_at) {
            if !last && p + REACH > end {
                waiting.push(p);
                continue;
            }
            if p < self.base {
                continue;
            }
            // Looking at a candidate (its fields looked up among the known
            // tables) costs 64, charged before anything else is done with
            // it, and every byte it compares with a known table after it one
            // unit more; a record found also pays a finding's cost and the
            // table it hashes, one unit per two bytes. Once the budget is
            // spent or [`crate::MAX_FOUND`] findings are kept, it is not
            // judged.
            let kind = crate::report::Kind::Declaration;
            if !self.spend(64, kind, p) || !self.keep(kind, p) {
                continue;
            }
            // Candidates come in order of offset: one at or before the last
            // judged was judged already.
            if self.declared_to.is_some_and(|q| p <= q) {
                continue;
            }
            self.declared_to = Some(p);
            let at = (p - self.base) as usize;
            let to = (at + REACH as usize).min(self.buf.len());
            let (d, compared) = self
                .index
                .declared
                .judge_costed(p, &self.buf[at..to], self.native);
            self.compared += compared;
            if let Some(d) = d {
                self.compared += FINDING_COST + d.present as u64 / 2;
                self.declared.push(d);
            }
        }
        self.declared_at = waiting;
    }
}
