// Package manifest is the one reader of YAML and JSON streams: every
// command and package that reads Kubernetes manifests (render, render/verify,
// convert, convert/migrate, cmd/xpmigrate) splits them here, numbers their
// documents here, and reads them as kubectl does here.
//
// A stream is split on `---` lines by Split into Documents. A Document has
// its position (Index, counted as users see it in "document N"; Line), its
// text twice (Raw, the content as a YAML reader is given it; Text, the
// bytes as they are in the stream, for editors that must copy what they do
// not change), and, on demand, its data as kubectl reads it (JSON, Decode)
// or its yaml.v3 node tree (Node).
//
// Comment-only text and empty documents before the first document belong to
// no document: they are the first document's Lead, so that Lead and the
// Texts of the documents, concatenated, give the stream back.
//
// The kubectl view (JSON) is what sigs.k8s.io/yaml.YAMLToJSON returns; a
// document in a plain subset of block YAML is read by a small exact reader
// (PlainJSON) that gives the same bytes faster. JSONView navigates that
// compact JSON without decoding it.
//
// LoadFile, LoadPath and LoadStream read files for the commands; their
// errors are InputErrors (exit code 2) naming the file, the document and
// the line (DocumentError).
package manifest
