/// The page's inline style sheet: system fonts only, colour as a second signal after the
/// symbol and word of each cell.
enum ReportPageStyle {
    static let css = """
        :root{--fg:#1d1d1f;--muted:#5f6368;--line:#d9dce1;--bg:#fff;--head:#f4f5f7}
        *{box-sizing:border-box}
        body{margin:0;padding:16px 20px 40px;font:13px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
        h1{font-size:20px;margin:0 0 2px}h2{font-size:15px;margin:18px 0 6px}
        .source{color:var(--muted);margin:0 0 8px;font-family:ui-monospace,monospace;font-size:12px}
        .totals{display:flex;flex-wrap:wrap;gap:6px 10px;align-items:center;margin:6px 0}
        .totals .count{font-weight:600;margin-right:6px}
        .total{padding:2px 8px;border-radius:10px;border:1px solid var(--line)}
        .notes{margin:4px 0;padding-left:18px;color:var(--muted)}
        .filters{display:flex;flex-wrap:wrap;gap:8px 14px;align-items:center;padding:8px 10px;background:var(--head);border:1px solid var(--line);border-radius:6px;position:sticky;top:0;z-index:3}
        .filters select,.filters input{font:inherit;padding:2px 4px}
        #shown{color:var(--muted)}
        .scroll{overflow:auto;max-width:100%;width:max-content;border:1px solid var(--line);border-radius:6px}
        table.matrix{border-collapse:separate;border-spacing:0;font-size:12px;table-layout:fixed}
        .matrix th,.matrix td{border-bottom:1px solid var(--line);border-right:1px solid var(--line);padding:3px 5px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
        .matrix thead th{background:var(--head);position:sticky;top:0;z-index:2;font-weight:600}
        .matrix thead th.rec{font-style:italic}
        .matrix th.name{text-align:left;position:sticky;left:0;background:var(--bg);z-index:1}
        .matrix thead th.name{z-index:3;background:var(--head)}
        .matrix th.name small{display:block;font-weight:400;color:var(--muted);white-space:normal}
        .matrix td.k{color:var(--muted)}
        td.c{text-align:left;cursor:pointer}
        td.c:focus{outline:2px solid #1a73e8;outline-offset:-2px}
        td.c.none{cursor:default}
        .c.v-passed{background:#e6f4ea;color:#0d652d}
        .c.v-failed{background:#d93025;color:#fff;font-weight:700}
        .c.v-xfail{background:#e8eaf6;color:#283593}
        .c.v-xpass{background:#f9ab00;color:#000;font-weight:700}
        .c.v-warning{background:#fef7e0;color:#7a4f01}
        .c.v-skipped{background:#f1f3f4;color:#5f6368}
        .c.v-blocked{background:#f3e8fd;color:#681da8;text-decoration:underline dotted}
        .c.v-other{background:#fff;color:#000;outline:1px dashed #000;outline-offset:-3px}
        td.c.dim{opacity:.3}
        tr[hidden],section[hidden]{display:none}
        aside#details{position:fixed;top:0;right:0;bottom:0;width:min(760px,100%);overflow:auto;background:#fff;border-left:2px solid var(--fg);box-shadow:-6px 0 18px rgba(0,0,0,.15);padding:14px 18px 30px;z-index:5}
        #close{float:right;font:inherit;padding:2px 8px}
        #detail-body h3{font-size:13px;margin:12px 0 3px}
        #detail-body .verdict{font-size:14px;font-weight:600}
        #detail-body pre{background:var(--head);border:1px solid var(--line);border-radius:4px;padding:6px 8px;white-space:pre-wrap;word-break:break-word;margin:0;font:12px/1.45 ui-monospace,monospace}
        #detail-body pre .fail{font-weight:700;background:#fce8e6;display:block}
        .copy{font:inherit;margin:3px 0;padding:1px 8px}
        footer{margin-top:18px;color:var(--muted)}
        .legend{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:6px 18px}
        .legend .c{display:inline-block;padding:1px 6px;border-radius:3px}
        @media print{.filters,aside#details{display:none}}
        """
}
