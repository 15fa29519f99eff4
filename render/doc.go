// Package render renders Compositions in process, with no cluster and no
// Docker: legacy `mode: Resources` Compositions through an emulation of
// Crossplane's native composer (sub-package legacy), and `mode: Pipeline`
// Compositions through an emulation of Crossplane's function composer with
// built-in function-patch-and-transform and function-environment-configs
// (sub-package pipeline).
//
// Both engines produce an Outcome: what one reconcile of one composite
// resource (XR) leaves behind. Print writes an Outcome in the exact format
// of `crossplane render` v1.20.11, so the two sides of a migration can be
// diffed as text, and the equivalence check compares Outcomes directly.
package render
