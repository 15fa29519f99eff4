// Package live checks a legacy Composition, and its conversion, against
// the XRs that run it in a live cluster (`xpmigrate verify --cluster`).
//
// It reads the cluster through internal/cluster (get and list only) and runs
// three checks per XR, each with the XR's own live composed resources as
// observed state and the cluster's EnvironmentConfigs:
//
//  1. emulation: the legacy render (render/engine) reproduces the live
//     objects in the fields Crossplane owns (composed resources' spec,
//     labels and annotations the templates and patches produce, the XR's
//     spec and status fields written by patches, its Ready condition, its
//     connection details compared as digests). A difference means the
//     cluster does something the emulator does not; it is never blamed on
//     the conversion.
//  2. conversion: render/verify compares the legacy and the converted
//     Composition for the XR, with verify's verdict model. An XR pinned to
//     a CompositionRevision that differs from the legacy Composition is
//     checked against that revision (converted on the fly).
//  3. drift: fields of live composed resources no render produces (manual
//     edits, fields a provider late-initialised): info, never a failure.
//
// FromCluster turns the Compositions read from the cluster into the legacy
// documents Verify takes (`verify --cluster --from-cluster`).
//
// XRs are checked as the reader streams them, one Verify call each,
// Options.Workers at once, and folded into the Report in list order as they
// finish (verify.Combiner for the conversion check): beyond the first
// Options.Detailed XRs with findings an XR keeps a compact record, and every
// finding is counted by object and path (Tally), so memory is bounded by
// the concurrency and the distinct paths, not the number of XRs.
//
// Each XR's claim is compared too, as Crossplane v1.20's claim syncer keeps
// it in step with the XR (check 1; its extra status fields are drift).
// Write writes the reports as text or JSON; WriteFormat in every output
// format with all three checks: Markdown and HTML (a page in the look of
// migrate's report, internal/htmlstyle), JUnit, SARIF and GitHub workflow
// commands (the conversion check as render/verify/format writes it, joined
// by the emulation differences, drift, unread objects, missing permissions
// and the per-Composition summary). RenderSection renders the same as the
// cluster section of migrate's report (convert/migrate/report.Cluster).
// Conversion differences fail as verify's verdict model says; emulation
// differences are warnings (failures only with RequireVerified), never
// attributed to the conversion; drift is info.
//
// It sits above render/verify, render/verify/format (whose writers it
// reuses for the conversion check) and internal/cluster, and below
// convert/migrate, which calls it for `migrate --cluster` (CheckCluster).
package live
