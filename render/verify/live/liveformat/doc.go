// Package liveformat writes the reports of render/verify/live (`verify
// --cluster`, `verify --cluster --from-cluster`, `migrate --cluster`) in
// every output format, with all three checks: text and JSON (live.Write),
// Markdown and HTML (a page in the look of migrate's report), JUnit, SARIF
// and GitHub workflow commands (the conversion check as
// render/verify/format writes it, joined by the emulation differences,
// drift, unread objects, missing permissions and the per-Composition
// summary). Section renders the same for migrate's report
// (convert/migrate/report.Cluster).
//
// Conversion differences fail as verify's verdict model says. Emulation
// differences are the cluster doing something the emulator does not: they
// are warnings (failures only with RequireVerified), never attributed to
// the conversion. Drift is info.
//
// It sits above render/verify/live and convert/migrate/report, which may
// not import each other, and reuses their models and helpers.
package liveformat
