// Package finding holds what the migrator reports about one document of a
// file: the Diagnostic (a converter diagnostic, codes C1xx–C3xx, or a
// migrator finding, codes M4xx), its severities, and the order reports list
// them in.
//
// It is the vocabulary the migrator's parts share: the tree scan
// (convert/migrate/tree), the Function wiring (convert/migrate/functions)
// and the run itself (convert/migrate, which calls the type
// migrate.Diagnostic, and migrate.Finding for the M-codes) all speak it,
// and it imports nothing of theirs. A finding on a whole file:
//
//	d := finding.Diagnostic{Code: "M413", Severity: finding.SeverityInfo, Document: -1,
//		Path: "spec.crossplane.version", Message: "Crossplane version constraint set to ..."}
//	ds = finding.Sort(append(ds, d))
package finding
