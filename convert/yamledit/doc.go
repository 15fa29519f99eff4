// Package yamledit edits YAML documents as yaml.v3 node trees and writes
// them back so that everything the edit did not touch keeps its bytes:
// comments, blank lines, key order, quoting, anchors, flow style and
// indentation.
//
// A stream is split into documents by the reading layer
// (internal/manifest.Split), which keeps every byte (separators, comments
// and empty documents included) in each document's Text, so a caller can
// copy the documents it does not change verbatim. A document is parsed
// with Parse; the returned Doc remembers, for every node, what it looked
// like and which source lines it came from. Edit the tree with the helpers
// of this package (Get, Set, Insert, Delete, Rename, NewString, …) or
// directly, then call Encode:
//
//	d, err := yamledit.Parse(doc.Text)
//	if err != nil {
//		return err // *SyntaxError, with the line
//	}
//	spec := yamledit.Get(d.Top(), "spec")
//	yamledit.Set(spec, "mode", yamledit.NewString("Pipeline"))
//	out, err := d.Encode()
//
// Encode copies every unchanged mapping entry and sequence item from the
// source, re-indented when it moved to another depth, and writes only what
// changed: new keys, changed scalars (in place, keeping the spacing and the
// comment that follow them), and the collections that contain them. It then
// reads the result back, as kubectl would (manifest.JSON), and compares it
// with a plain yaml.v3 rendering of the same tree; should the two ever differ it returns
// that plain rendering instead (Doc.Spliced reports which one was used), so
// an edit is never lost to formatting.
//
// What does not survive: comments inside a flow collection that changed,
// and the line breaks of a changed flow collection (it is written on one
// line).
package yamledit
