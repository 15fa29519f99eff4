// Package htmlstyle holds the look of xpmigrate's HTML reports: one style
// sheet that every page (`migrate --report report.html`, `verify --cluster
// --format html`) inlines, so the pages look the same and need no external
// asset.
//
//	<style>` + htmlstyle.Sheet + `</style>
//
// In an html/template, pass it as template.CSS(htmlstyle.Sheet): it is a
// constant of this package, never data.
package htmlstyle

// Sheet is the style sheet of the HTML reports.
const Sheet = `body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1f2328;background:#fff}
header{background:#24292f;color:#fff;padding:12px 24px}
header h1{margin:0 0 6px;font-size:20px}
header nav a{color:#c9d1d9;margin-right:16px}
main{padding:12px 24px}
h2{border-bottom:1px solid #d0d7de;padding-bottom:4px}
table{border-collapse:collapse;width:100%;margin:8px 0}
th,td{border:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top;font-size:14px}
th{background:#f6f8fa}
table.summary{width:auto}
table.fixed{table-layout:fixed}
.path,.code.path{word-break:break-all}
td.detail{background:#fbfcfd;padding:2px 12px}
.type{display:block;color:#57606a;font-size:12px}
.ok{color:#1a7f37;font-weight:600}.warn{color:#9a6700;font-weight:600}.bad{color:#cf222e;font-weight:600}
.status{font-weight:600}
.status-converted,.status-equivalent{color:#1a7f37}
.status-failed,.status-different,.status-error{color:#cf222e}
.status-skipped,.status-known-gaps,.status-unverified,.status-inconclusive,.status-not-processed,.status-phase1{color:#9a6700}
.status-intended-change{color:#1a7f37}
details{margin:4px 0}
summary{cursor:pointer;color:#0969da}
pre,.code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px}
pre.diff{background:#f6f8fa;padding:8px;overflow:auto;margin:4px 0}
pre.value{white-space:pre-wrap;word-break:break-all;margin:0}
pre.diff span{display:block;white-space:pre-wrap;word-break:break-all}
#headline{font-size:18px;margin:12px 0}
.add{background:#dafbe1}.del{background:#ffebe9}.hunk{color:#8250df}.hdr{font-weight:600}
table.sbs td{border:none;padding:0 6px;white-space:pre-wrap;word-break:break-all;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px}
table.sbs td.num{color:#8c959f;text-align:right;width:1%;user-select:none}
table.sbs td.del{background:#ffebe9}table.sbs td.add{background:#dafbe1}table.sbs td.mov,.mov{background:#ddf4ff}
table.sbs{table-layout:fixed}
.sev-error{color:#cf222e}.sev-warning{color:#9a6700}.sev-info{color:#57606a}
ul.diags{margin:4px 0;padding-left:18px}
`
