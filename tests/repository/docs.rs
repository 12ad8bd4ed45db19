//! The docs follow the code. Every cargo feature of `actlut` has its row in the
//! feature tables of the README and of the crate docs (the `//!` front page of
//! `src/lib.rs`), and no row names a feature that does not exist; their
//! function tables list exactly the functions of `Function::ALL` with built-in tables (every
//! constant with a default) and their format tables
//! exactly `Format::ALL`, in order; and every count of functions, formats or
//! tables in the prose of the README, the crate docs, docs/*.md and
//! BENCHMARKS.md is either the true one (from `Function::ALL`, `Format::ALL`
//! and `tables/actlut.lock`) or dated: its paragraph names the commit it was
//! measured at.

use actlut::Format;
use actlut::Function;

fn read(path: &str) -> String {
    let full = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("read {full}: {e}"))
}

/// The crate docs: the `//!` lines at the top of `src/lib.rs`, as markdown.
fn crate_docs() -> String {
    read("src/lib.rs")
        .lines()
        .take_while(|l| l.starts_with("//!"))
        .map(|l| {
            l.strip_prefix("//! ")
                .unwrap_or(l.trim_start_matches("//!"))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every feature `actlut` declares in Cargo.toml's `[features]`, except `default`.
fn cargo_features() -> Vec<String> {
    let toml = read("Cargo.toml");
    let section = toml
        .split("\n[features]\n")
        .nth(1)
        .expect("a [features] table");
    let section = section.split("\n[").next().unwrap();
    section
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with(' '))
        .filter_map(|l| l.split_once(" = ").map(|(name, _)| name.trim().to_string()))
        .filter(|name| name != "default")
        .collect()
}

/// A markdown table whose header's first cell names features: the header's
/// first cell, and the features (the backticked words) of each row's first
/// cell, with the row's line number.
struct FeatureTable {
    header: String,
    rows: Vec<(usize, Vec<String>)>,
}

fn cells(line: &str) -> Vec<&str> {
    line.trim()
        .trim_matches('|')
        .split('|')
        .map(str::trim)
        .collect()
}

fn backticked(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

fn feature_tables(markdown: &str) -> Vec<FeatureTable> {
    let lines: Vec<&str> = markdown.lines().collect();
    let mut tables = Vec::new();
    let mut i = 0;
    while i + 1 < lines.len() {
        let is_header =
            lines[i].trim_start().starts_with('|') && lines[i + 1].trim_start().starts_with("|---");
        if !is_header {
            i += 1;
            continue;
        }
        let header = cells(lines[i])[0].to_string();
        let mut rows = Vec::new();
        let mut j = i + 2;
        while j < lines.len() && lines[j].trim_start().starts_with('|') {
            rows.push((j + 1, backticked(cells(lines[j])[0])));
            j += 1;
        }
        if header.contains("feature") {
            tables.push(FeatureTable { header, rows });
        }
        i = j;
    }
    tables
}

/// The features a document's feature tables name, in order, for the tables
/// whose header's first cell contains `kind` (all of them for "").
fn named(tables: &[FeatureTable], kind: &str) -> Vec<String> {
    tables
        .iter()
        .filter(|t| t.header.contains(kind))
        .flat_map(|t| t.rows.iter().flat_map(|(_, f)| f.clone()))
        .collect()
}

fn check_feature_tables(doc: &str, markdown: &str) {
    let tables = feature_tables(markdown);
    assert!(
        tables.len() >= 3,
        "{doc}: expected a format, a function and another feature table (headers `format feature`, \
         `function feature`, `other feature`), found {}",
        tables.len()
    );
    let features = cargo_features();
    let all_named = named(&tables, "");
    for feature in &features {
        assert!(
            all_named.contains(feature),
            "{doc}: the cargo feature `{feature}` has no row in its feature tables: add one"
        );
    }
    for table in &tables {
        for (line, names) in &table.rows {
            assert!(
                !names.is_empty(),
                "{doc}:{line}: a feature-table row must name its feature in backticks"
            );
            for name in names {
                assert!(
                    features.contains(name),
                    "{doc}:{line}: the row names `{name}`, which is not a feature of actlut's Cargo.toml"
                );
            }
        }
    }
    // The functions with built-in tables (every constant with a default) have features.
    let functions: Vec<&str> = Function::ALL
        .iter()
        .filter(|f| f.has_defaults())
        .map(|f| f.feature())
        .collect();
    assert_eq!(
        named(&tables, "function"),
        functions,
        "{doc}: the `function feature` table must list every function of Function::ALL with built-in tables, in order"
    );
    let formats: Vec<&str> = Format::ALL.iter().map(|f| f.feature()).collect();
    assert_eq!(
        named(&tables, "format"),
        formats,
        "{doc}: the `format feature` table must list every format of Format::ALL, in order"
    );
}

#[test]
fn every_feature_function_and_format_has_its_row_in_the_readme() {
    check_feature_tables("README.md", &read("README.md"));
}

#[test]
fn every_feature_function_and_format_has_its_row_in_the_crate_docs() {
    check_feature_tables("src/lib.rs (crate docs)", &crate_docs());
}

/// The lock's tables: (name, format) per line.
fn lock_tables() -> Vec<(String, String)> {
    lock_lines(false)
}

/// The (name, format) of every derivative table of the lock (`derivatives`).
fn lock_derivative_tables() -> Vec<(String, String)> {
    lock_lines(true)
}

/// The (name, format) of the lock's function tables, or of its derivative tables.
fn lock_lines(derivative: bool) -> Vec<(String, String)> {
    read("tables/actlut.lock")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let mut cols = l.split_whitespace();
            let name = cols.next().unwrap().to_string();
            let function = cols.next().expect("a function column");
            let format = cols.next().expect("a format column").to_string();
            (function.ends_with("_derivative") == derivative).then_some((name, format))
        })
        .collect()
}

/// The true value of a count: `what` is the noun with its qualifier
/// ("functions", "formats", "tables", "16-bit tables", "f16 tables", ...).
fn truth(what: &str) -> Option<usize> {
    let tables = lock_tables();
    let of_format = |name: &str| tables.iter().filter(|(_, f)| f == name).count();
    Some(match what {
        // The functions with built-in tables: every constant with a default.
        "functions" => Function::ALL.iter().filter(|f| f.has_defaults()).count(),
        "formats" => Format::ALL.len(),
        // The function tables; a derivative table is counted as one ("N derivative tables").
        "tables" => tables.len(),
        "derivative tables" => lock_derivative_tables().len(),
        "16-bit tables" => of_format("f16") + of_format("bf16"),
        "f16 tables" => of_format("f16"),
        "bf16 tables" => of_format("bf16"),
        _ => return None,
    })
}

/// Every "N functions", "N formats", "N tables" and "N 16-bit/f16/bf16
/// tables" of `text` outside code blocks, with its line and whether its
/// paragraph (or table) is dated by a commit.
fn counts(text: &str) -> Vec<(usize, usize, String, bool)> {
    let mut found = Vec::new();
    let mut in_code = false;
    let lines: Vec<&str> = text.lines().collect();
    // Paragraph boundaries: blank lines, and code fences.
    let mut para_start = 0;
    for (i, line) in lines.iter().enumerate() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            para_start = i + 1;
            continue;
        }
        if in_code {
            continue;
        }
        if line.trim().is_empty() {
            para_start = i + 1;
            continue;
        }
        // A number ending a sentence ("5.") is not a count of what follows.
        let words: Vec<&str> = line
            .split(|c: char| c.is_whitespace() || "()*:;`|".contains(c))
            .filter(|w| !w.is_empty())
            .collect();
        for (k, w) in words.iter().enumerate() {
            let digits: String = w.chars().filter(|c| *c != ',').collect();
            let Ok(n) = digits.parse::<usize>() else {
                continue;
            };
            if !w.chars().all(|c| c.is_ascii_digit() || c == ',') {
                continue;
            }
            let word = |j: usize| words.get(j).map_or("", |w| w.trim_end_matches([',', '.']));
            let (next, after) = (word(k + 1), word(k + 2));
            let what = match (next, after) {
                ("functions" | "formats" | "tables", _) => next.to_string(),
                ("16-bit" | "f16" | "bf16" | "derivative", "tables") => format!("{next} tables"),
                _ => continue,
            };
            let mut end = i;
            while end < lines.len()
                && !lines[end].trim().is_empty()
                && !lines[end].starts_with("```")
            {
                end += 1;
            }
            // A table's caption is the paragraph right above it.
            let mut start = para_start;
            if line.trim_start().starts_with('|')
                && start >= 2
                && lines[start - 1].trim().is_empty()
            {
                start -= 1;
                while start > 0
                    && !lines[start - 1].trim().is_empty()
                    && !lines[start - 1].starts_with("```")
                {
                    start -= 1;
                }
            }
            let paragraph = lines[start..end].join("\n");
            let dated = dated(&paragraph);
            found.push((i + 1, n, what, dated));
        }
    }
    found
}

/// Whether a paragraph names the commit its figures were measured at:
/// `commit` followed by at least seven hex digits.
fn dated(paragraph: &str) -> bool {
    paragraph.match_indices("commit").any(|(at, _)| {
        let rest = paragraph[at + "commit".len()..].trim_start_matches([' ', '\n', '`']);
        rest.chars().take_while(char::is_ascii_hexdigit).count() >= 7
    })
}

#[test]
fn every_count_of_functions_formats_and_tables_in_the_docs_is_true_or_dated() {
    let mut docs: Vec<(String, String)> = vec![
        ("README.md".into(), read("README.md")),
        ("src/lib.rs (crate docs)".into(), crate_docs()),
        ("BENCHMARKS.md".into(), read("BENCHMARKS.md")),
    ];
    let dir = format!("{}/docs", env!("CARGO_MANIFEST_DIR"));
    let mut pages: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("read {dir}: {e}"))
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".md"))
        .collect();
    pages.sort();
    for page in pages {
        let path = format!("docs/{page}");
        docs.push((path.clone(), read(&path)));
    }
    let mut wrong = Vec::new();
    let mut checked = 0;
    for (doc, text) in &docs {
        for (line, n, what, dated) in counts(text) {
            let want = truth(&what).unwrap();
            checked += 1;
            if n != want && !dated {
                wrong.push(format!(
                    "{doc}:{line}: \"{n} {what}\", but there are {want} (Function::ALL, Format::ALL, \
                     tables/actlut.lock): correct it, or name the commit it was measured at in its paragraph"
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(
        checked >= 3,
        "the README's counts were not found ({checked} counts checked)"
    );
}

#[test]
fn the_readme_states_the_true_counts() {
    // The README's opening paragraph says how many functions, formats and
    // tables there are; it must say it undated, so that it is checked above.
    let readme = read("README.md");
    for what in ["functions", "formats", "tables"] {
        let want = truth(what).unwrap();
        assert!(
            counts(&readme)
                .iter()
                .any(|(_, n, w, dated)| w == what && *n == want && !dated),
            "README.md must say, undated, that there are {want} {what}"
        );
    }
}

#[test]
fn the_count_parser_finds_counts_and_dates() {
    let found = counts(
        "There are 18 functions and 1,024 tables. Or 5. f16 tables\n\nAt commit 0123abc, 16 f16 tables.\n\
         ```\n9 formats\n```\nSizes at commit 0123abc:\n\n| a |\n|---|\n| 32 tables. |\n\n| 7 formats |\n",
    );
    assert_eq!(
        found,
        vec![
            (1, 18, "functions".to_string(), false),
            (1, 1024, "tables".to_string(), false),
            (3, 16, "f16 tables".to_string(), true),
            (11, 32, "tables".to_string(), true),
            (13, 7, "formats".to_string(), false),
        ]
    );
    assert!(!dated("the commit before it"));
}

#[test]
fn every_docs_page_is_linked_from_the_readme_and_the_crate_docs() {
    let readme = read("README.md");
    let crate_docs = crate_docs();
    let dir = format!("{}/docs", env!("CARGO_MANIFEST_DIR"));
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("read {dir}: {e}")) {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if !name.ends_with(".md") {
            continue;
        }
        assert!(
            readme.contains(&format!("](docs/{name}")),
            "README.md does not link docs/{name}: add it to the README's Documentation table"
        );
        assert!(
            crate_docs.contains(&format!("/docs/{name})")),
            "the crate docs (src/lib.rs) do not link docs/{name}: add it to their Documentation list"
        );
    }
}

#[test]
fn the_readme_is_at_most_400_lines() {
    // The README is for deciding and starting; each subject's detail has its page in docs/.
    let lines = read("README.md").lines().count();
    assert!(
        lines <= 400,
        "README.md has {lines} lines, more than 400: move the detail to its page in docs/"
    );
}

/// `text` without its fenced code blocks.
fn prose(text: &str) -> String {
    let mut in_code = false;
    let mut out = String::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if !in_code {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

#[test]
fn every_relative_link_of_the_docs_reaches_a_file_and_heading() {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut docs: Vec<String> = vec![
        "README.md".into(),
        "BENCHMARKS.md".into(),
        "CHANGELOG.md".into(),
    ];
    let mut pages: Vec<_> = std::fs::read_dir(format!("{root}/docs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".md"))
        .map(|n| format!("docs/{n}"))
        .collect();
    pages.sort();
    docs.extend(pages);
    let anchors = |path: &str| -> Vec<String> {
        prose(&read(path))
            .lines()
            .filter_map(|l| l.strip_prefix('#'))
            .map(|l| slug(l.trim_start_matches('#')))
            .collect()
    };
    let mut broken = Vec::new();
    for doc in &docs {
        let text = prose(&read(doc));
        for (at, _) in text.match_indices("](") {
            let rest = &text[at + 2..];
            let Some(end) = rest.find(')') else { continue };
            let link = &rest[..end];
            if link.contains("://") || link.starts_with("mailto:") || link.contains(' ') {
                continue;
            }
            let (path, anchor) = link.split_once('#').unwrap_or((link, ""));
            let target = if path.is_empty() {
                doc.clone()
            } else {
                let dir = std::path::Path::new(doc).parent().unwrap();
                let mut parts: Vec<&str> = dir
                    .to_str()
                    .unwrap()
                    .split('/')
                    .filter(|p| !p.is_empty())
                    .collect();
                for part in path.split('/') {
                    match part {
                        ".." => {
                            parts.pop();
                        }
                        "." | "" => {}
                        p => parts.push(p),
                    }
                }
                parts.join("/")
            };
            if !std::path::Path::new(&format!("{root}/{target}")).exists() {
                broken.push(format!(
                    "{doc}: the link ({link}) names {target}, which does not exist"
                ));
            } else if !anchor.is_empty()
                && target.ends_with(".md")
                && !anchors(&target).contains(&anchor.to_string())
            {
                broken.push(format!(
                    "{doc}: the link ({link}) names no heading of {target}"
                ));
            }
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

/// The cells of a markdown table row, split at the `|` that are not inside a
/// code span (`` `|x|` ``) or escaped (`\|`).
fn row_cells(line: &str) -> Vec<String> {
    let inner = line.trim();
    let inner = inner.strip_prefix('|').unwrap_or(inner);
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    let mut out = vec![String::new()];
    let (mut in_code, mut escaped) = (false, false);
    for c in inner.chars() {
        match c {
            '|' if !in_code && !escaped => out.push(String::new()),
            _ => {
                if c == '`' {
                    in_code = !in_code;
                }
                out.last_mut().unwrap().push(c);
            }
        }
        escaped = c == '\\';
    }
    out
}

/// Every row of every markdown table of `markdown` (outside code blocks) whose
/// cell count differs from its header's: `(line, header cells, row cells)`.
fn malformed_rows(markdown: &str) -> Vec<(usize, usize, usize)> {
    let lines: Vec<&str> = markdown.lines().collect();
    let mut bad = Vec::new();
    let (mut i, mut in_code) = (0, false);
    while i < lines.len() {
        if lines[i].trim_start().starts_with("```") {
            in_code = !in_code;
        }
        let is_header = !in_code
            && i + 1 < lines.len()
            && lines[i].trim_start().starts_with('|')
            && lines[i + 1].trim_start().starts_with("|-");
        if !is_header {
            i += 1;
            continue;
        }
        let width = row_cells(lines[i]).len();
        let mut j = i + 1;
        while j < lines.len() && lines[j].trim_start().starts_with('|') {
            let n = row_cells(lines[j]).len();
            if n != width {
                bad.push((j + 1, width, n));
            }
            j += 1;
        }
        i = j;
    }
    bad
}

#[test]
fn a_table_row_with_a_stray_or_missing_cell_is_found() {
    let table = "| job | use | more |\n|---|---|---|\n| a | b | c |\n| a | b | c | stray |\n| orphan |\n| `|x|` | b \\| c | d |\n";
    assert_eq!(malformed_rows(table), [(4, 3, 4), (5, 3, 1)]);
    let fenced = "```text\n| a |\n|---|\n| b | c |\n```\n";
    assert_eq!(malformed_rows(fenced), []);
}

#[test]
fn every_markdown_table_row_has_its_headers_cell_count() {
    let mut docs = vec![
        "README.md".to_string(),
        "BENCHMARKS.md".to_string(),
        "CHANGELOG.md".to_string(),
        "adapters/candle/README.md".to_string(),
        "adapters/burn/README.md".to_string(),
    ];
    let dir = format!("{}/docs", env!("CARGO_MANIFEST_DIR"));
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name.ends_with(".md") {
            docs.push(format!("docs/{name}"));
        }
    }
    for doc in docs {
        let bad = malformed_rows(&read(&doc));
        assert!(
            bad.is_empty(),
            "{doc}: rows whose cell count differs from their header's (line, header, row): {bad:?}"
        );
    }
    let crate_bad = malformed_rows(&crate_docs());
    assert!(crate_bad.is_empty(), "src/lib.rs crate docs: {crate_bad:?}");
}

#[test]
fn the_readme_documentation_table_lists_every_docs_page() {
    let readme = read("README.md");
    let section = readme
        .split("\n## Documentation\n")
        .nth(1)
        .expect("a Documentation section")
        .split("\n## ")
        .next()
        .unwrap();
    let dir = format!("{}/docs", env!("CARGO_MANIFEST_DIR"));
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name.ends_with(".md") {
            assert!(
                section.contains(&format!("| [docs/{name}](docs/{name}) |")),
                "README.md's Documentation table has no row for docs/{name}"
            );
        }
    }
}

/// The compact stored forms' size range as prose states it, from
/// `tables/actlut-compact.lock`: the smallest rounded to the nearest KiB, the
/// largest rounded up ("3–23 KiB").
fn compact_range() -> String {
    compact_range_of("tables/actlut-compact.lock")
}

/// [`compact_range`] of the lock at `path` (the words layout's:
/// `tables/actlut-compact-words.lock`).
fn compact_range_of(path: &str) -> String {
    let sizes = stored_sizes(path);
    let (min, max) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
    format!("{}–{} KiB", (min + 512) / 1024, max.div_ceil(1024))
}

#[test]
fn every_statement_of_the_compact_size_range_is_the_locks() {
    let bytes = compact_range();
    let words = compact_range_of("tables/actlut-compact-words.lock");
    let files = [
        "README.md",
        "Cargo.toml",
        "docs/compact.md",
        "docs/embedded.md",
        "src/lib.rs",
        "src/compact.rs",
        "src/tables.rs",
    ];
    let mut seen = 0;
    for file in files {
        for (n, line) in read(file).lines().enumerate() {
            // "A–B KiB" with whole numbers: the compact range (decimal ranges
            // are other measurements).
            for (at, _) in line.match_indices(" KiB") {
                let head = &line[..at];
                let start = head
                    .rfind(|c: char| !(c.is_ascii_digit() || c == '–'))
                    .map_or(0, |i| i + 1);
                let range = &head[start..];
                if let Some((a, b)) = range.split_once('–')
                    && !a.is_empty()
                    && !b.is_empty()
                    && !line[..start].ends_with('.')
                {
                    seen += 1;
                    // A line of the words layout (`compact-words`) states
                    // its lock's range; every other line the bytes layout's.
                    let (want, lock) = if line.contains("words") {
                        (&words, "tables/actlut-compact-words.lock")
                    } else {
                        (&bytes, "tables/actlut-compact.lock")
                    };
                    assert_eq!(
                        &format!("{range} KiB"),
                        want,
                        "{file}:{}: the compact forms' range from {lock} is {want}",
                        n + 1
                    );
                }
            }
        }
    }
    assert!(
        seen >= 5,
        "the compact range is stated {seen} times; expected at least 5"
    );
}

/// Every file and folder that docs/ARCHITECTURE.md names exists: a backticked path
/// (`src/kernels/driver.rs`, `tables/`) from the workspace root, and a bare file name
/// (`driver.rs`) in one of the folders its paragraph or table row names. Patterns
/// (`core/src/function/<name>.rs`) and globs are not paths.
#[test]
fn every_file_docs_architecture_names_exists() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = read("docs/ARCHITECTURE.md");
    let is_file_name = |s: &str| {
        [".rs", ".md", ".sh", ".toml", ".lock", ".svg"]
            .iter()
            .any(|e| s.ends_with(e))
            || s == "SHA256SUMS"
    };
    let mut missing = Vec::new();
    let mut checked = 0;
    // A table row is a paragraph of its own.
    let paragraphs: Vec<String> = text
        .split("\n\n")
        .flat_map(|p| {
            if p.trim_start().starts_with('|') {
                p.lines().map(String::from).collect::<Vec<_>>()
            } else {
                vec![p.to_string()]
            }
        })
        .collect();
    for paragraph in &paragraphs {
        let tokens: Vec<String> = paragraph
            .split('`')
            .skip(1)
            .step_by(2)
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty() && !t.contains(['<', '*', ' ', '…', '(', ':']))
            .collect();
        let paths: Vec<&String> = tokens.iter().filter(|t| t.contains('/')).collect();
        let dirs: Vec<std::path::PathBuf> = paths
            .iter()
            .map(|p| root.join(p.trim_end_matches('/')))
            .map(|p| {
                if p.is_dir() {
                    p
                } else {
                    p.parent().unwrap().to_path_buf()
                }
            })
            .collect();
        for path in &paths {
            // Build output and relative paths are not files of the repository.
            if path.starts_with("OUT_DIR/") || (path.starts_with('.') && !path.starts_with(".ci")) {
                continue;
            }
            checked += 1;
            if !root.join(path.trim_end_matches('/')).exists() {
                missing.push(format!("`{path}`"));
            }
        }
        for name in tokens
            .iter()
            .filter(|t| !t.contains('/') && is_file_name(t))
        {
            checked += 1;
            // In a folder of the paragraph, or at the root (`build.rs`, `Cargo.toml`).
            let found = root.join(name).exists() || dirs.iter().any(|d| d.join(name).exists());
            if !found {
                missing.push(format!("`{name}` (in none of {paths:?})"));
            }
        }
    }
    assert!(
        checked > 40,
        "only {checked} paths found: the parser lost them"
    );
    assert!(
        missing.is_empty(),
        "docs/ARCHITECTURE.md names files that do not exist:\n  {}",
        missing.join("\n  ")
    );
}

/// docs/testing.md's per-step table, which `scripts/test.sh` reads for its estimate of
/// what is left, has exactly one row with a figure per step of `.ci/steps/`.
#[test]
fn every_ci_step_has_its_expected_time_in_docs_testing() {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut steps: Vec<String> = std::fs::read_dir(format!("{root}/.ci/steps"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter_map(|n| n.strip_suffix(".sh").map(String::from))
        .collect();
    steps.sort();
    let mut rows: Vec<String> = read("docs/testing.md")
        .lines()
        .filter_map(|l| {
            let c = cells(l);
            let name = c.first()?.strip_prefix('`')?.strip_suffix('`')?;
            let secs: u32 = c.get(1)?.parse().ok()?;
            (secs > 0 && name.as_bytes().first()?.is_ascii_digit()).then(|| name.to_string())
        })
        .collect();
    rows.sort();
    assert_eq!(rows, steps);
}

/// The `stored=` column of the compact lock at `path`: each form's length.
fn stored_sizes(path: &str) -> Vec<u64> {
    read(path)
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            l.split_whitespace()
                .find_map(|c| c.strip_prefix("stored="))
                .expect("a stored= column")
                .parse()
                .unwrap()
        })
        .collect()
}

/// The words layout's size statements (docs/compact.md, "Which layout";
/// Cargo.toml's feature comment) are the locks' `stored=` columns.
#[test]
fn the_two_layouts_totals_are_the_locks() {
    let total = |path: &str| -> u64 { stored_sizes(path).iter().sum() };
    let commas = |n: u64| {
        let s = n.to_string();
        let mut out = String::new();
        for (i, c) in s.chars().enumerate() {
            if i > 0 && (s.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        out
    };
    let (bytes, words) = (
        total("tables/actlut-compact.lock"),
        total("tables/actlut-compact-words.lock"),
    );
    let compact_md = read("docs/compact.md");
    for n in [bytes, words] {
        assert!(
            compact_md.contains(&format!("{} bytes", commas(n))),
            "docs/compact.md: {n}"
        );
    }
    let ratio = format!("({:.2}×)", words as f64 / bytes as f64);
    assert!(compact_md.contains(&ratio), "docs/compact.md: {ratio}");
    // The feature comment's lines joined.
    let cargo = read("Cargo.toml").replace("\n## ", " ");
    let kb = |n: u64| format!("{} KB", (n + 500) / 1000);
    assert!(
        cargo.contains(&format!("({} against {}", kb(words), kb(bytes))),
        "Cargo.toml: {} against {}",
        kb(words),
        kb(bytes)
    );
}

/// docs/SEMANTICS.md's "Other engines' names" table lists exactly the names of
/// `actlut_core::names::ENGINE_NAMES`, each beside the op it parses to.
#[test]
fn the_engines_names_table_lists_every_engine_name_with_its_function() {
    let semantics = read("docs/SEMANTICS.md");
    let start = semantics
        .find("### Other engines' names")
        .expect("docs/SEMANTICS.md has its engines' names section");
    let section = &semantics[start..];
    let section = &section[..section[4..].find("\n#").map_or(section.len(), |i| i + 4)];
    let mut listed: Vec<(String, String)> = Vec::new();
    for line in section
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| engine"))
    {
        let cells = row_cells(line);
        let (names, functions) = (backticked(&cells[1]), backticked(&cells[2]));
        // One op for every name, or one per name, in order.
        for (i, name) in names.iter().enumerate() {
            let function = if functions.len() == 1 {
                &functions[0]
            } else {
                &functions[i]
            };
            listed.push((name.clone(), function.clone()));
        }
    }
    let mut want: Vec<(String, String)> = actlut_core::names::ENGINE_NAMES
        .iter()
        .map(|(n, op)| (n.to_string(), op.to_string()))
        .collect();
    listed.sort();
    want.sort();
    assert_eq!(listed, want);
}

/// docs/SEMANTICS.md's "Format names" tables: one row per format of `Format::ALL`, in order,
/// with its dtype name and exactly the names `FORMAT_NAMES` gives it per library (`other`:
/// numpy's and the short names); and the refused names, exactly those of `FORMAT_NAMES`.
#[test]
fn the_format_names_table_lists_every_format_with_its_names() {
    use actlut_core::names::{FormatName, FORMAT_NAMES};
    let semantics = read("docs/SEMANTICS.md");
    let start = semantics
        .find("### Format names")
        .expect("docs/SEMANTICS.md has its format names section");
    let section = &semantics[start..];
    let section = &section[..section[4..].find("\n#").map_or(section.len(), |i| i + 4)];
    let rows: Vec<Vec<String>> = section
        .lines()
        .filter(|l| l.starts_with("| `"))
        .map(row_cells)
        .collect();
    let names_of = |f: actlut::Format, libs: &[&str]| -> Vec<String> {
        FORMAT_NAMES
            .iter()
            .filter(|(lib, _, m)| libs.contains(lib) && *m == FormatName::Is(f))
            .map(|(_, n, _)| n.to_string())
            .collect()
    };
    let mut listed = Vec::new();
    let mut refused = Vec::new();
    for cells in &rows {
        if cells.len() == 5 {
            listed.push(
                cells
                    .iter()
                    .map(|c| backticked(c))
                    .collect::<Vec<Vec<String>>>(),
            );
        } else {
            refused.extend(backticked(&cells[0]));
        }
    }
    let want: Vec<Vec<Vec<String>>> = Format::ALL
        .iter()
        .map(|&f| {
            vec![
                vec![f.name().to_string()],
                vec![f.dtype_name().to_string()],
                names_of(f, &["PyTorch"]),
                names_of(f, &["ONNX"]),
                names_of(f, &["numpy", "short"]),
            ]
        })
        .collect();
    assert_eq!(listed, want, "docs/SEMANTICS.md, \"Format names\"");
    let mut want_refused: Vec<String> = FORMAT_NAMES
        .iter()
        .filter(|(_, _, m)| matches!(m, FormatName::Refused(_)))
        .map(|(lib, n, _)| match *lib {
            "PyTorch" => format!("torch.{n}"),
            _ => n.to_string(),
        })
        .collect();
    want_refused.sort();
    refused.sort();
    assert_eq!(
        refused, want_refused,
        "docs/SEMANTICS.md, the refused names"
    );
}
