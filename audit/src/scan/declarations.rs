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
    /// records stops the scan at the budget or at [`crate::limits::MAX_FOUND`]
    /// findings kept ([`crate::report::Report::too_many`]).
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
            // spent or [`crate::limits::MAX_FOUND`] findings are kept, it is not
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
            let (d, compared, recompute) =
                self.index
                    .declared
                    .judge_costed(p, &self.buf[at..to], self.native);
            // Computing a declared op again: the first ones from the op
            // allowance, the rest from the budget.
            let free = recompute.min(self.op_allowance);
            self.op_allowance -= free;
            self.compared += compared + (recompute - free);
            if let Some(d) = d {
                self.compared += FINDING_COST + d.present as u64 / 2;
                if let Some((lo, hi, order)) = self.clearing(&d) {
                    self.cover.insert(lo, hi);
                    self.declared_extents.insert((lo, hi));
                    let found = self.found.len();
                    self.intact
                        .push(super::verify::Intact::declared(found, lo, hi, order));
                }
                self.declared.push(d);
            }
        }
        self.declared_at = waiting;
    }

    /// The file range of a declared full table verified intact where its
    /// declaration stands, in the file's byte order: an intact copy, which
    /// clears the evidence inside it as a copy found by its content does (a
    /// table verified at its declaration only, a derivative's or a
    /// piecewise-linear function's, holds runs that other tables' evidence
    /// matches). It enters the cover when it is judged, before the copies
    /// around it are compared (a candidate wholly inside intact copies is
    /// not) and their evidence is settled ([`Scanner::settle`]). With its
    /// byte order.
    fn clearing(
        &self,
        d: &crate::declared::Declared,
    ) -> Option<(u64, u64, crate::reference::ByteOrder)> {
        let decl = d.declaration.as_ref().ok()?;
        let intact = d.expected.is_some()
            && d.actual == d.expected
            && d.present == decl.len as usize
            && d.layout.is_none()
            && d.near.is_none()
            && decl.representation == actlut_codegen::record::Representation::Full;
        let order_ok = match (decl.width, self.native) {
            (2, Some(native)) => {
                (native == crate::reference::ByteOrder::Big)
                    == (decl.order == actlut_codegen::record::StoredOrder::Big)
            }
            _ => true,
        };
        let order = match (decl.width, decl.order) {
            (2, actlut_codegen::record::StoredOrder::Big) => crate::reference::ByteOrder::Big,
            (2, _) => crate::reference::ByteOrder::Little,
            _ => crate::reference::ByteOrder::Bytes,
        };
        let lo = d.offset + decl.record_bytes() as u64;
        (intact && order_ok).then(|| (lo, lo + u64::from(decl.len), order))
    }
}
