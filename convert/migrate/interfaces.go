package migrate

import (
	"context"

	"github.com/xpmigrate/xpmigrate/convert/migrate/finding"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
)

// Severities of a Diagnostic, as docs/semantics/conversion.md uses them.
const (
	SeverityError   = finding.SeverityError
	SeverityWarning = finding.SeverityWarning
	SeverityInfo    = finding.SeverityInfo
)

// A Diagnostic is one finding about one document of a file: a converter
// diagnostic (codes C1xx–C3xx of docs/reference/diagnostics.md) or a migrator finding
// (codes M4xx, see Finding codes). Its fields are package finding's.
type Diagnostic = finding.Diagnostic

// A ConvertRequest asks a Converter to convert one file.
type ConvertRequest struct {
	// Path is the file's slash-separated path relative to the migrated
	// tree; diagnostics may quote it.
	Path string
	// Data is the file's content.
	Data []byte
	// Format is "yaml" or "json" (files named *.json). A JSON file must
	// come back as JSON.
	Format string
	// Target is the Crossplane line to convert for.
	Target crossplane.Target
	// Phase1 asks for step one of the unnamed-template rollout: the
	// Composition stays in mode Resources, with generated names added to
	// unnamed templates.
	Phase1 bool
	// PatchAndTransform and EnvironmentConfigs name the functions the
	// pipeline steps reference; empty means the converter's defaults. The
	// migrator resolves them from Function manifests and Configuration
	// dependencies in the tree (docs/semantics/conversion.md#function-names).
	PatchAndTransform  string
	EnvironmentConfigs string
	// XRDs are the CompositeResourceDefinitions of the file's Compositions'
	// types found in the tree (the nearest of each): their schemas tell the
	// converter which XR fields are integers.
	XRDs []map[string]any
	// Compositions are, for a file with XRDs converted to v2
	// (Options.Definitions), the Compositions of their types in other
	// files, decoded whole: their templates decide the XRDs' scope.
	Compositions []map[string]any
}

// A ConvertResponse is a converted file.
//
// Document indices (in Diagnostics and Documents) count documents as
// manifest.Split does: a leading separator opens the first document, and
// comment-only text before it belongs to no document.
type ConvertResponse struct {
	// Data is the whole file after conversion. It equals the request's
	// Data when nothing changed. Documents that are not Compositions, and
	// Compositions the converter refused, must be byte-identical.
	Data []byte
	// Diagnostics are the converter's findings. A diagnostic of severity
	// error on a document means that document was not converted.
	Diagnostics []Diagnostic
	// Documents optionally says what happened to each document. Without
	// it the migrator reads the output to find out.
	Documents []DocumentStatus
}

// Document statuses a Converter reports.
const (
	DocConverted = "converted" // rewritten
	DocUnchanged = "unchanged" // a Composition with nothing to do
	DocSkipped   = "skipped"   // not a Composition
	DocFailed    = "failed"    // refused: copied unchanged
)

// A DocumentStatus is what a Converter did with one document.
type DocumentStatus struct {
	Index  int
	Status string
	// Before and After optionally hold a converted document's data as
	// kubectl reads it (sigs.k8s.io/yaml.YAMLToJSON of its text), before
	// and after conversion, when the converter has them: verification
	// then need not parse the documents again.
	Before, After []byte
	// Lines optionally locates nodes of the document before conversion,
	// as verify.Document.Lines does but with lines in the file.
	Lines func(path []any) (int, bool)
}

// A Converter converts the Compositions in one file and leaves everything
// else byte-identical. It must be safe for concurrent use. It returns an
// error only when it cannot process the file at all (for example invalid
// YAML); problems with one Composition are error diagnostics.
type Converter interface {
	Convert(ctx context.Context, req ConvertRequest) (*ConvertResponse, error)
}

// A Sample is one XR or claim the equivalence check renders.
type Sample struct {
	// Source names where the sample came from: "path/to/file.yaml#2" for
	// the third document of a file.
	Source string `json:"source"`
	// Object is the decoded XR or claim.
	Object map[string]any `json:"-"`
}

// A VerifyRequest asks a Verifier whether a converted Composition renders
// what its legacy form rendered.
type VerifyRequest struct {
	// File is the path of the Composition's file, relative to the tree,
	// and Name its metadata.name.
	File, Name string
	// Legacy and Converted are the Composition's YAML document before and
	// after conversion (for an item of a List document, the item alone).
	Legacy, Converted []byte
	// LegacyJSON and ConvertedJSON optionally hold what Legacy and
	// Converted mean, as kubectl reads them (JSON), when the converter
	// said so.
	LegacyJSON, ConvertedJSON []byte
	// LegacyLines optionally locates nodes of Legacy, as
	// verify.Document.Lines does, when the converter said where they were.
	LegacyLines func(path []any) (int, bool)
	// Samples are the XRs and claims found in the tree for this
	// Composition, nearest first.
	Samples []Sample
	// XRD is the CompositeResourceDefinition of the Composition's type,
	// when the tree has it. It lets samples be claims and drives
	// synthesis.
	XRD map[string]any
	// Extra are other objects found in the tree that renders may read:
	// EnvironmentConfigs.
	Extra []map[string]any
	// Synthesize asks for this many generated samples on top of Samples.
	Synthesize int
	// Target is the Crossplane line, as for the conversion.
	Target crossplane.Target
	// Accept lists breaking gap codes the user accepts (--accept).
	Accept []string
}

// A Verifier runs the equivalence check for one Composition. It must be
// safe for concurrent use. It returns an error only when it cannot run the
// check at all; a sample that fails to render is a SampleResult with an
// error.
type Verifier interface {
	Verify(ctx context.Context, req VerifyRequest) (*Verification, error)
}

// A Twinner writes v2 XR twins of examples (claims and legacy XRs): a
// Converter that implements it gets `migrate --target v2` to write them.
type Twinner interface {
	// Twins reports whether a run for target writes twins.
	Twins(target crossplane.Target) bool
	// Twin returns the twin of one example document.
	Twin(ctx context.Context, req TwinRequest) (*TwinResponse, error)
}

// A TwinRequest asks for the v2 XR twin of one example document.
type TwinRequest struct {
	// Path names the example's file in diagnostics.
	Path string
	// Doc is the example document's text.
	Doc []byte
	// Group, Kind and Plural name the legacy XR type (the XRD's), Version
	// the version the twin is written at.
	Group, Kind, Plural, Version string
}

// A TwinResponse is the twin of one example.
type TwinResponse struct {
	// Data is the twin document.
	Data []byte
	// Diagnostics are about the example document (Document 0, lines of
	// the document).
	Diagnostics []Diagnostic
}
