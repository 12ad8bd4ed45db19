//! Declaration records: the candidates the probe met (a marker, or a known
//! header, hash or name field), judged once their bytes are in the buffer
//! ([`crate::declared`]).

use actlut_codegen::record::{Representation, StoredOrder};

use crate::declared::MAX_DECLARATION_BYTES;
use crate::limits::FINDING_COST;
use crate::reference::ByteOrder;
use crate::report::Kind;

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
        // Those in reach of the end wait for more bytes (all come in order).
        let ready = self
            .declared_at
            .partition_point(|&p| last || p + REACH <= end);
        for p in self.declared_at.drain(..ready).collect::<Vec<_>>() {
            if p < self.base {
                continue;
            }
            // Looking at a candidate (its fields looked up among the known
            // tables) costs 64, charged first, and every byte it compares
            // with a known table one unit more; a record found also pays a
            // finding's cost and the table it hashes, one unit per two bytes.
            if !self.spend(64, Kind::Declaration, p) || !self.keep(Kind::Declaration, p) {
                continue;
            }
            if self.declared_to.is_some_and(|q| p <= q) {
                continue;
            }
            self.declared_to = Some(p);
            let at = (p - self.base) as usize;
            let to = (at + REACH as usize).min(self.buf.len());
            let judge = &self.index.declared;
            let (d, compared, recompute) = judge.judge_costed(p, &self.buf[at..to], self.native);
            // Computing a declared op again: the first ones from the op
            // allowance, the rest from the budget.
            let free = recompute.min(self.op_allowance);
            self.op_allowance -= free;
            self.compared += compared + (recompute - free);
            if let Some(d) = d {
                self.compared += FINDING_COST + d.present as u64 / 2;
                if let Some((lo, hi)) = self.clearing(&d) {
                    self.cover.insert(lo, hi);
                    self.declared_extents.insert((lo, hi));
                }
                self.declared.push(d);
            }
        }
    }

    /// The file range of a declared full table verified intact where its
    /// declaration stands, in the file's byte order: an intact copy, which
    /// clears the evidence inside it as a copy found by its content does (a table verified at its declaration only, a derivative's
    /// or a piecewise-linear function's, holds runs that other tables'
    /// evidence matches). It enters the cover when judged, before the copies
    /// around it are compared (one wholly inside is not) and settled.
    fn clearing(&self, d: &crate::declared::Declared) -> Option<(u64, u64)> {
        let decl = d.declaration.as_ref().ok()?;
        let intact = d.expected.is_some()
            && d.actual == d.expected
            && d.present == decl.len as usize
            && d.layout.is_none()
            && d.near.is_none()
            && decl.representation == Representation::Full;
        let order = match (decl.width, decl.order) {
            (2, StoredOrder::Big) => ByteOrder::Big,
            (2, _) => ByteOrder::Little,
            _ => ByteOrder::Bytes,
        };
        let big = |o| o == ByteOrder::Big;
        let order_ok = decl.width != 2 || self.native.is_none_or(|n| big(n) == big(order));
        let lo = d.offset + decl.record_bytes() as u64;
        (intact && order_ok).then(|| (lo, lo + u64::from(decl.len)))
    }
}
