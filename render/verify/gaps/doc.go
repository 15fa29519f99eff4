// Package gaps classifies the differences render/verify finds between a
// legacy Composition and its conversion: each known semantic gap between
// Crossplane's native composer and the function pipeline is a small rule
// that recognises its difference, by its code in the
// catalogue (GapCodes), with the converter's diagnostic codes that warn
// about it, the measurements of docs/semantics/differences.md that found
// it, an explanation naming the patch or check at fault, and the fix.
//
// The package holds what the rules read: the Difference found in one or
// more reconciles (Aspect, Path, Value), each side's result of a reconcile
// (Side), and both Compositions as a Model (templates with their PatchSets
// expanded, environment patches and sources, in either dialect).
//
// Classify compares every reconcile of a sample with the Compare function
// it is given in the Context (render/verify's), merges the differences
// over the reconciles, and sets each one's Gap: from the first rule that
// matches, or from the differences it follows from; nil when nothing
// explains it. The rules tell the engines' failures apart by their types,
// never by their text.
package gaps
