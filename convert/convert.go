package convert

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/pkg/errors"
	yaml "go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/convert/yamledit"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// A Status is what happened to one document.
type Status string

// Document statuses.
const (
	// StatusConverted: the document was rewritten.
	StatusConverted Status = "converted"

	// StatusUnchanged: a Composition with nothing to do (already a
	// pipeline, or our own output).
	StatusUnchanged Status = "unchanged"

	// StatusSkipped: not a Composition; copied byte for byte.
	StatusSkipped Status = "skipped"

	// StatusFailed: an error was found; the document is copied unchanged.
	StatusFailed Status = "failed"
)

// A DocumentReport says what happened to one document of the input.
type DocumentReport struct {
	// Index is the 0-based position of the document in the file, counting
	// empty ones; Line the 1-based line it starts on.
	Index int `json:"index"`
	Line  int `json:"line"`

	// Kind and Name identify the document's object, when it has them. A
	// List is reported with the names of the Compositions it holds.
	Kind string `json:"kind,omitempty"`
	Name string `json:"name,omitempty"`

	Status Status `json:"status"`

	// Before and After are the document's data as kubectl reads it, as JSON
	// (sigs.k8s.io/yaml.YAMLToJSON of the document text, exactly), before and after
	// conversion. They are set only for a Composition that is a whole document
	// (not an item of a List) and was converted; nil otherwise.
	Before, After []byte `json:"-"`

	// Lines locates nodes of such a Composition as it was before
	// conversion: given a path (string keys, int indexes) of one of its
	// templates, their patches, or the environment's patches, the line in
	// the file of its deepest node that exists, and true; false for other
	// paths. Nil when Before is.
	Lines func(path []any) (int, bool) `json:"-"`
}

// legacyPaths are the routes of DocumentReport.Lines.
var legacyPaths = [][]string{
	{"spec", "resources", "#", "patches", "#"},
	{"spec", "environment", "patches", "#"},
}

// A Result is the outcome of a conversion.
type Result struct {
	// Output is the converted stream. Documents that were not converted
	// (not Compositions, failed, unchanged) are byte for byte as in the
	// input.
	Output []byte

	// Changed reports whether Output differs from the input.
	Changed bool

	Documents   []DocumentReport
	Diagnostics []Diagnostic

	// fallbacks counts the documents written by the plain renderer
	// because the layout-keeping one could not be used (tests).
	fallbacks int
}

// Failed reports whether any finding is an error: the output must not be
// used.
func (r *Result) Failed() bool {
	for _, d := range r.Diagnostics {
		if d.Severity == SeverityError {
			return true
		}
	}
	return false
}

// Errors counts the diagnostics of each severity.
func (r *Result) Errors() (errs, warnings, infos int) {
	for _, d := range r.Diagnostics {
		switch d.Severity {
		case SeverityError:
			errs++
		case SeverityWarning:
			warnings++
		case SeverityInfo:
			infos++
		}
	}
	return errs, warnings, infos
}

// An InputError is input that cannot be read as YAML (C102). Nothing is
// converted.
type InputError struct {
	Diagnostic Diagnostic
}

func (e *InputError) Error() string { return e.Diagnostic.String() }

// IsInvalidInput reports whether err is (or wraps) unreadable input.
func IsInvalidInput(err error) bool {
	var ie *InputError
	return errors.As(err, &ie)
}

// Convert converts every legacy Composition in a YAML stream
// (docs/semantics/conversion.md, #reading-the-input to #output-validation) and returns the new stream with its findings. Everything
// else in the stream is copied byte for byte.
//
// The error is an *OptionError for invalid options and an *InputError for
// input that is not YAML; findings about the Compositions themselves,
// errors included, are in Result.Diagnostics (see Result.Failed).
//
// The v2-native target (Target v2 with an XRScope other than legacy) is
// converted by package convert/v2native (v2native.Convert): Convert
// refuses it with an *OptionError.
func Convert(src []byte, opts Options) (*Result, error) {
	return convertStream(src, opts, nil)
}

// convertStream is Convert with the Extension ext (nil for none).
func convertStream(src []byte, opts Options, ext Extension) (*Result, error) {
	o, err := opts.complete()
	if err != nil {
		return nil, err
	}
	if o.v2Native() && ext == nil {
		return nil, &OptionError{errors.New("the v2-native target (target v2 with an XR scope other than legacy) is converted by package convert/v2native")}
	}
	r := &run{o: o, res: &Result{}, ext: ext}
	// The stream as UTF-8, as migrate's scan reads it: a byte order mark
	// dropped, UTF-16 transcoded. Written back only when something
	// converts.
	text, err := manifest.Text(src)
	if err != nil {
		return nil, &InputError{Diagnostic: Diagnostic{Code: "C102", Severity: SeverityError, File: o.Source, Line: 1, Document: 0,
			Message: "cannot read YAML: " + err.Error()}}
	}
	chunks := manifest.Split(text)
	docs := make([]*yamledit.Doc, len(chunks))
	for i, c := range chunks {
		d, err := yamledit.Parse(c.Text)
		if err != nil {
			var se *yamledit.SyntaxError
			line := c.TextLine
			msg := err.Error()
			if errors.As(err, &se) {
				if se.Line > 0 {
					line = c.TextLine + se.Line - 1
				}
				msg = se.Msg
			}
			return nil, &InputError{Diagnostic: Diagnostic{
				Code: "C102", Severity: SeverityError, File: o.Source, Line: line, Document: i,
				Message: "cannot parse YAML: " + msg,
			}}
		}
		var ee *yamledit.ExpansionError
		if d != nil && errors.As(yamledit.CheckAliases(d.Node), &ee) {
			return nil, &InputError{Diagnostic: Diagnostic{
				Code: "C102", Severity: SeverityError, File: o.Source, Line: c.TextLine + ee.Line - 1, Document: i,
				Message: "cannot read YAML: " + ee.Message(),
			}}
		}
		docs[i] = d
	}
	r.xrds = append(slices.Clone(o.XRDs), streamXRDs(chunks, docs)...)
	r.schemas = xrdSchemas(r.xrds)
	r.docs = docs
	r.resolveFunctions(docs, chunks)
	var out bytes.Buffer
	out.Write(chunks[0].Lead) // Comments before the first document.
	for i, c := range chunks {
		b, err := r.document(i, c, docs[i])
		if err != nil {
			return nil, err
		}
		out.Write(b)
	}
	r.runFindings()
	r.applyStrict()
	if o.EmitFunctions && !r.res.Failed() {
		r.emitFunctions(&out, docs)
	}
	sort.SliceStable(r.res.Diagnostics, func(i, j int) bool {
		a, b := r.res.Diagnostics[i], r.res.Diagnostics[j]
		ai, bi := a.Document, b.Document
		if ai < 0 {
			ai = math.MaxInt
		}
		if bi < 0 {
			bi = math.MaxInt
		}
		if ai != bi {
			return ai < bi
		}
		return a.Line < b.Line
	})
	r.res.Output = out.Bytes()
	if bytes.Equal(r.res.Output, text) {
		r.res.Output = src
	}
	r.res.Changed = !bytes.Equal(r.res.Output, src)
	return r.res, nil
}

// run is the state of one Convert call.
type run struct {
	o   Options
	res *Result

	ext Extension // the target's, or nil

	ptFunction, ecFunction string
	schemas                []xrdSchema // of the XRDs known
	docs                   []*yamledit.Doc
	xrds                   []map[string]any // known XRDs (decoded), options' and the input's

	converted int  // Compositions converted
	usedEC    bool // an environment-configs step was written
}

func (r *run) add(d Diagnostic) {
	if d.File == "" {
		d.File = r.o.Source
	}
	if info, ok := Lookup(d.Code); ok && d.Severity == "" {
		d.Severity = info.Severity
	}
	if strings.HasPrefix(string(d.Code), "C4") && slices.ContainsFunc(r.res.Diagnostics, func(e Diagnostic) bool { return e == d }) {
		return // A v2-native finding of a patch set shared by several templates, said once.
	}
	r.res.Diagnostics = append(r.res.Diagnostics, d)
}

// strict reports whether warning d counts as an error (Options.Strict).
func (r *run) strict(d Diagnostic) bool {
	return r.o.Strict && d.Severity == SeverityWarning && !(d.Code == "C204" && (r.o.AckUnnamed || r.o.Phase1))
}

// strictFails reports whether a finding from index from on fails its
// document under Options.Strict.
func (r *run) strictFails(from int) bool {
	for _, d := range r.res.Diagnostics[from:] {
		if r.strict(d) {
			return true
		}
	}
	return false
}

// applyStrict turns the warnings into errors (spec "Severity words").
func (r *run) applyStrict() {
	for i := range r.res.Diagnostics {
		if d := &r.res.Diagnostics[i]; r.strict(*d) {
			d.Severity = SeverityError
			d.Message += " (--strict)"
		}
	}
}

// runFindings adds the findings reported once per run.
func (r *run) runFindings() {
	if r.converted == 0 || r.o.Phase1 {
		return
	}
	r.add(Diagnostic{Code: "C318", Document: -1, Message: "Pipeline mode applies composed resources with server-side apply and migrates their managed fields once; a field a template stops rendering is then removed from the object"})
	r.add(Diagnostic{Code: "C319", Document: -1, Message: "XRs pinned to a revision (compositionUpdatePolicy: Manual or a revision selector) keep running the Resources-mode revision on 1.x; Crossplane v2 stops reconciling them until they move to a Pipeline revision"})
	if r.usedEC && r.o.Target == crossplane.V1 && r.o.compensate(CompensateECVersion) {
		r.add(Diagnostic{Code: "C324", Document: -1, Message: fmt.Sprintf("install function-environment-configs %s on Crossplane 1.x: releases from v0.7.0 on receive no EnvironmentConfigs there (silently empty environment); move to %s after the upgrade to v2", ECVersionV1, ECVersionV2)})
	}
}

// document converts one document of the stream, and returns its bytes.
func (r *run) document(i int, c manifest.Document, d *yamledit.Doc) ([]byte, error) {
	rep := DocumentReport{Index: i, Line: c.TextLine, Status: StatusSkipped}
	defer func() { r.res.Documents = append(r.res.Documents, rep) }()
	if d == nil {
		return c.Text, nil
	}
	top := d.Top()
	if !yamledit.IsMap(top) {
		return c.Text, nil
	}
	apiVersion, _ := yamledit.Str(yamledit.Get(top, "apiVersion"))
	kind, _ := yamledit.Str(yamledit.Get(top, "kind"))
	rep.Kind = kind
	rep.Name, _ = yamledit.Str(yamledit.Get(yamledit.Get(top, "metadata"), "name"))
	var doc *Document
	if r.ext != nil {
		doc = &Document{r: r, index: i, chunk: c, doc: d, rep: &rep, from: len(r.res.Diagnostics)}
		if r.ext.Document(doc) {
			return doc.out, nil
		}
	}

	var comps []*composition
	var listItems []func() (changed, failed bool) // the extension's, of a List
	switch {
	case apiVersion == "v1" && kind == "List":
		items := yamledit.Get(top, "items")
		if !yamledit.IsSeq(items) {
			return c.Text, nil
		}
		var names []string
		for j, it := range yamledit.Resolve(items).Content {
			if doc != nil {
				if conv := r.ext.ListItem(doc, it, fmt.Sprintf("items[%d].", j)); conv != nil {
					listItems = append(listItems, conv)
					continue
				}
			}
			cp := r.recognise(i, c, d, it, fmt.Sprintf("items[%d].", j))
			if cp != nil {
				comps = append(comps, cp)
				names = append(names, cp.name)
			}
		}
		if len(names) > 0 {
			rep.Name = joinNames(names)
		}
	default:
		if cp := r.recognise(i, c, d, top, ""); cp != nil {
			comps = append(comps, cp)
		}
	}
	if len(comps)+len(listItems) == 0 {
		return c.Text, nil
	}
	var lines *yamledit.LineTable
	if len(comps) == 1 && comps[0].base == "" {
		// Conversion moves the templates: note where they were first.
		lines = yamledit.NewLineTable(top, legacyPaths)
	}
	from := len(r.res.Diagnostics)
	changed, failed := false, false
	for _, conv := range listItems {
		ch, f := conv()
		changed, failed = changed || ch, failed || f
	}
	for _, cp := range comps {
		cp.convert()
		changed = changed || cp.changed
		failed = failed || cp.failed
	}
	failed = failed || r.strictFails(from)
	switch {
	case failed:
		rep.Status = StatusFailed
		return c.Text, nil
	case !changed:
		rep.Status = StatusUnchanged
		return c.Text, nil
	}
	var out []byte
	var err error
	if len(comps) == 1 && comps[0].outJSON != nil {
		out, err = d.EncodeKnown(comps[0].outJSON) // No edit since validateOutput.
	} else {
		out, err = d.Encode()
	}
	if err != nil {
		r.add(Diagnostic{Code: "C192", Document: i, Line: c.TextLine, Composition: rep.Name, Message: err.Error()})
		rep.Status = StatusFailed
		return c.Text, nil
	}
	if !d.Spliced() {
		r.res.fallbacks++
	}
	for _, cp := range comps {
		validatePass{cp}.checkRoundTrip(d.ReadBack())
		failed = failed || cp.failed
	}
	if failed {
		rep.Status = StatusFailed
		return c.Text, nil
	}
	rep.Status = StatusConverted
	if len(comps) == 1 && comps[0].base == "" {
		rep.Before, rep.After = comps[0].inJSON, d.ReadBack()
		if lines != nil {
			first := c.TextLine
			rep.Lines = func(path []any) (int, bool) {
				l, ok := lines.Line(path)
				if !ok {
					return 0, false
				}
				return first + l - 1, true
			}
		}
	}
	for _, cp := range comps {
		if cp.changed {
			r.converted++
		}
		r.usedEC = r.usedEC || cp.usedEC
	}
	return out, nil
}

func joinNames(names []string) string {
	var b bytes.Buffer
	for i, n := range names {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(n)
	}
	return b.String()
}

// recognise returns the Composition in node n, or nil when n is not one
// (docs/semantics/conversion.md#reading-the-input).
func (r *run) recognise(i int, c manifest.Document, d *yamledit.Doc, n *yaml.Node, base string) *composition {
	n = yamledit.Resolve(n)
	if !yamledit.IsMap(n) {
		return nil
	}
	apiVersion, _ := yamledit.Str(yamledit.Get(n, "apiVersion"))
	kind, _ := yamledit.Str(yamledit.Get(n, "kind"))
	group, version := xp.SplitAPIVersion(apiVersion)
	if group != xp.GroupAPIExtensions {
		return nil
	}
	name, _ := yamledit.Str(yamledit.Get(yamledit.Get(n, "metadata"), "name"))
	switch kind {
	case "CompositionRevision":
		r.add(Diagnostic{Code: "C301", Document: i, Line: c.TextLine + n.Line - 1, Composition: name, Path: trimDot(base),
			Message: "CompositionRevisions are never converted; convert the Composition and let Crossplane create a new revision"})
		return nil
	case "Composition":
	default:
		return nil
	}
	cp := &composition{r: r, doc: d, index: i, lineBase: c.TextLine - 1, base: base, name: name, node: n, visited: map[*yaml.Node]bool{}}
	if r.ext != nil {
		cp.ext = r.ext.Composition(&Composition{cp})
	}
	j, err := kubectlView(c.Text, base)
	if err != nil {
		cp.errorf("C102", n, "", "kubectl cannot read this document (a template?): %v", err)
		return cp
	}
	cp.inJSON = j
	if version != "v1" {
		cp.errorf("C101", n, "apiVersion", "cannot convert a Composition of apiVersion %q: only apiextensions.crossplane.io/v1 is supported", apiVersion)
		return cp
	}
	return cp
}

func trimDot(s string) string {
	if len(s) > 0 && s[len(s)-1] == '.' {
		return s[:len(s)-1]
	}
	return s
}

// kubectlView returns the object at base ("" or "items[3].") of a
// document as kubectl reads it, as JSON.
func kubectlView(text []byte, base string) ([]byte, error) {
	j, err := manifest.JSON(text)
	if err != nil || base == "" {
		return j, err
	}
	var doc map[string]any
	if err := json.Unmarshal(j, &doc); err != nil {
		return nil, err
	}
	item := listItem(doc, base)
	if item == nil {
		return nil, errors.Errorf("no %s", trimDot(base))
	}
	return json.Marshal(item)
}
