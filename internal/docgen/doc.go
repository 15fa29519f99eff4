// Package docgen writes xpmigrate's reference documentation: a Markdown page
// per command of the CLI, an index, and the diagnostics reference, built
// from the command tree and the converter's registry (given as values) so that neither can drift
// from the code.
//
// The package knows no CLI framework. The caller describes its commands as
// a tree of Command values (cmd/xpmigrate adapts its cobra tree), joins the
// converter's registry with the explanations kept here (Diagnostics), and
// gets the pages back as Files:
//
//	diags, err := docgen.Diagnostics(codes) // []docgen.Diagnostic, explained
//	if err != nil {
//		return err // a code without an explanation, or an explanation without a code
//	}
//	files := docgen.Reference(root, diags)
//	stale, err := docgen.Stale(os.DirFS("docs/reference"), files)
//	// or: docgen.Write("docs/reference", files)
//
// Every page starts with Marker, so Write can tell the pages it generated
// (and may remove when their command is gone) from files someone wrote by
// hand, which it leaves alone. The output is deterministic: commands keep
// the order of the tree, codes the order of the registry, and nothing
// depends on the machine, the clock or the working directory.
package docgen
