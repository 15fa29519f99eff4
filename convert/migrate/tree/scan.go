package tree

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pkg/errors"
	yaml3 "go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/convert/migrate/finding"
	"github.com/xpmigrate/xpmigrate/convert/migrate/kustomize"
	"github.com/xpmigrate/xpmigrate/convert/yamledit"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/regularfile"
	"github.com/xpmigrate/xpmigrate/internal/v2map"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// A DocInfo is what the scan keeps of one document (or one item of a
// `kind: List` document).
type DocInfo struct {
	// Index is the document's 0-based index in its file, item its index
	// in a List document (-1 otherwise), line the line it starts on.
	Index, Item, Line int

	APIVersion, Kind, Name, namespace string

	// Obj is the decoded object. For Compositions only the fields the
	// index needs are kept (see slimComposition).
	Obj map[string]any
	// list is set for a document that is a sequence (a JSON 6902 patch).
	list []any
	// Findings are the document's v2-readiness findings as it is.
	Findings []finding.Diagnostic
	// PTStep is, for a legacy Composition, the index the
	// patch-and-transform step will have once converted (1 after an
	// environment-configs step, else 0).
	PTStep int
	// analysed reports that findings and ptStep are set (by the slim
	// scan, from the whole document).
	analysed bool
}

// A Scanned is one candidate file after the scan.
type Scanned struct {
	Entry
	// Sum and size identify the content the scan read.
	Sum  [sha256.Size]byte
	size int64
	// Format is "yaml" or "json".
	Format string
	// Reason and detail are set when the file is skipped as a whole.
	Reason, Detail string
	// Line is where a parse error is, 0 when unknown.
	Line int
	// Docs are the decoded documents.
	Docs []DocInfo
	// Compositions counts the Composition documents (and List items);
	// xrds the CompositeResourceDefinition documents.
	Compositions, XRDs int
	// LegacyHint reports that a skipped file seems to hold a legacy
	// Composition.
	LegacyHint bool
	// DupOf is set when the same file is migrated under another path.
	DupOf string
}

var (
	KindComp     = regexp.MustCompile(`(?m)^\s*kind:\s*["']?Composition["']?\s*(#.*)?$`)
	modePipeline = regexp.MustCompile(`(?m)^\s*mode:\s*["']?Pipeline["']?\s*(#.*)?$`)
)

// ScanFile reads and classifies one candidate file.
func ScanFile(e Entry) *Scanned {
	s := &Scanned{Entry: e, Format: FormatOf(e.Rel)}
	data, err := manifest.ReadFile(e.Real)
	if err != nil {
		var nr *regularfile.NotRegularError
		switch {
		case regularfile.IsTooLarge(err):
			s.Reason, s.Detail, s.LegacyHint = tooLarge(e.Real, err)
			return s
		case errors.Is(err, fs.ErrNotExist):
			s.Reason, s.Detail = ReasonVanished, "deleted during the run"
			return s
		case errors.As(err, &nr):
			s.Reason, s.Detail = ReasonNotRegular, NotRegularDetail(nr.Mode)
			return s
		}
		s.Reason, s.Detail = ReasonUnreadable, err.Error()
		return s
	}
	s.Sum = sha256.Sum256(data)
	s.size = int64(len(data))
	s.Classify(data)
	return s
}

// Classify fills s from data: skip reasons, or documents. It reads data
// as convert does: as UTF-8 text (manifest.Text), split by manifest.Split.
func (s *Scanned) Classify(data []byte) {
	data, err := manifest.Text(data)
	if err != nil {
		s.Reason, s.Detail = ReasonUnparseable, err.Error()
		return
	}
	if isBinary(data) {
		s.Reason, s.Detail = ReasonUnparseable, "binary data, not YAML or JSON text"
		return
	}
	if s.Format == "yaml" && hasYttAnnotation(data) {
		s.Reason, s.Detail = ReasonYtt, "ytt template (#@ annotations)"
		s.LegacyHint = LooksLegacy(data)
		return
	}
	docs, line, err := DecodeFileSlim(data, s.Format)
	if err != nil {
		s.Line = line
		var ee *yamledit.ExpansionError
		if errors.As(err, &ee) {
			s.Reason, s.Detail, s.Line = ReasonAliasBomb, ee.Error(), ee.Line
			return
		}
		s.LegacyHint = LooksLegacy(data)
		if bytes.Contains(data, []byte("{{")) {
			s.Reason, s.Detail = ReasonTemplate, "Helm/Go-template syntax that is not valid YAML"
			return
		}
		s.Reason, s.Detail = ReasonUnparseable, err.Error()
		return
	}
	if templated(data) {
		// Template actions that happen to parse as YAML (a flow mapping
		// for `{{ .Values.name }}`) but that kubectl cannot read.
		s.Reason, s.Detail = ReasonTemplate, "Helm/Go-template syntax that kubectl cannot read"
		s.LegacyHint = LooksLegacy(data)
		return
	}
	s.Docs = docs
	for i := range docs {
		d := &docs[i]
		if IsComposition(d.APIVersion, d.Kind) {
			s.Compositions++
		}
		if IsXRD(d.APIVersion, d.Kind) {
			s.XRDs++
		}
		if !d.analysed {
			d.Findings = docFindings(*d, false)
			d.PTStep = ptStepOf(d.Obj)
		}
	}
}

// templated reports whether a Composition document of data holds template
// actions ({{ … }}) outside strings, which kubectl cannot read.
func templated(data []byte) bool {
	if !bytes.Contains(data, []byte("{{")) || !KindComp.Match(data) {
		return false
	}
	for _, d := range manifest.Split(data) {
		if !bytes.Contains(d.Raw, []byte("{{")) || !KindComp.Match(d.Raw) {
			continue
		}
		if _, err := d.JSON(); err != nil {
			return true
		}
	}
	return false
}

// isBinary reports whether text (UTF-8, manifest.Text's) is not text: a
// NUL byte or invalid UTF-8.
func isBinary(text []byte) bool {
	return bytes.IndexByte(text, 0) >= 0 || !utf8.Valid(text)
}

// ptStepOf returns the index the patch-and-transform step of a legacy
// Composition gets: 1 when an environment-configs step goes first
// (docs/semantics/conversion.md#pipeline-layout, docs/semantics/conversion.md#splitting-the-environment).
func ptStepOf(obj map[string]any) int {
	if !IsComposition(jsonobj.AsString(obj["apiVersion"]), jsonobj.AsString(obj["kind"])) || !IsLegacy(obj) {
		return 0
	}
	env := jsonobj.Map(obj, "spec", "environment")
	if len(jsonobj.List(env, "environmentConfigs")) > 0 || len(jsonobj.Map(env, "defaultData")) > 0 {
		return 1
	}
	return 0
}

// hasYttAnnotation reports whether data has a ytt annotation: "#@" at the
// start of a line or after whitespace.
func hasYttAnnotation(data []byte) bool {
	for i := 0; ; {
		j := bytes.Index(data[i:], []byte("#@"))
		if j < 0 {
			return false
		}
		at := i + j
		if at == 0 || data[at-1] == ' ' || data[at-1] == '\t' || data[at-1] == '\n' || data[at-1] == '\r' {
			return true
		}
		i = at + 2
	}
}

// LooksLegacy reports whether text that cannot be parsed seems to hold a
// Composition not in Pipeline mode.
func LooksLegacy(data []byte) bool {
	return KindComp.Match(data) && !modePipeline.Match(data)
}

func FormatOf(rel string) string {
	if strings.EqualFold(filepath.Ext(rel), ".json") {
		return "json"
	}
	return "yaml"
}

// DecodeFileSlim decodes every document of a file for the scan (on error
// it returns the line the failing document starts on): a Composition document is
// parsed into YAML nodes and only what the index needs is kept (see
// slimComposition), which is several times cheaper than decoding it.
func DecodeFileSlim(data []byte, format string) ([]DocInfo, int, error) {
	return DecodeDocs(data, format, true)
}

func DecodeDocs(data []byte, format string, slimCompositions bool) ([]DocInfo, int, error) {
	data, err := manifest.Text(data)
	if err != nil {
		return nil, 0, err
	}
	raws := manifest.Whole(data)
	if format != "json" {
		raws = manifest.Split(data)
	}
	var out []DocInfo
	for _, r := range raws {
		if slimCompositions && format == "yaml" && KindComp.Match(r.Raw) {
			// Other errors fall through to the reader every command uses
			// (kubectl's), for its verdict and its line.
			if d, ok, err := SlimDoc(r); err != nil {
				if ee := expansionError(r, err); ee != nil {
					return nil, ee.Line, ee
				}
			} else if ok {
				out = append(out, d)
				continue
			}
		}
		v, err := manifest.DecodeValue(r.Raw)
		if err != nil {
			if format == "yaml" {
				if ee := expansionError(r, aliasesOf(r)); ee != nil {
					return nil, ee.Line, ee
				}
			}
			de := manifest.NewDocumentError("", r, err)
			return nil, de.Line, errors.Errorf("line %d (document %d): %s", de.Line, de.Document, de.Msg)
		}
		switch t := v.(type) {
		case map[string]any:
			d := newDocInfo(r.Index, -1, r.Line, t)
			out = append(out, d)
			if d.APIVersion == "v1" && d.Kind == "List" {
				items, _ := t["items"].([]any)
				for i, it := range items {
					if m, ok := it.(map[string]any); ok {
						out = append(out, newDocInfo(r.Index, i, r.Line, m))
					}
				}
			}
		case []any:
			out = append(out, DocInfo{Index: r.Index, Item: -1, Line: r.Line, list: t})
		}
	}
	return out, 0, nil
}

// expansionError returns err as an *yamledit.ExpansionError whose line
// counts from the start of the file, or nil when err is not one.
func expansionError(r manifest.Document, err error) *yamledit.ExpansionError {
	var ee *yamledit.ExpansionError
	if !errors.As(err, &ee) {
		return nil
	}
	out := *ee
	out.Line += r.Line - 1
	return &out
}

// aliasesOf checks a document that failed to decode against the alias
// budget (yamledit.CheckAliases), so that an alias bomb is told from
// other errors.
func aliasesOf(r manifest.Document) error {
	n, err := r.Node()
	if err != nil {
		return nil //nolint:nilerr // Not YAML: not an alias bomb either.
	}
	return yamledit.CheckAliases(n)
}

func newDocInfo(index, item, line int, m map[string]any) DocInfo {
	d := DocInfo{Index: index, Item: item, Line: line, Obj: m}
	d.APIVersion, _ = m["apiVersion"].(string)
	d.Kind, _ = m["kind"].(string)
	d.Name = jsonobj.String(m, "metadata", "name")
	d.namespace = jsonobj.String(m, "metadata", "namespace")
	return d
}

// IsComposition reports whether apiVersion and kind name a Composition, in
// any version (the converter reports versions it does not handle).
func IsComposition(apiVersion, kind string) bool {
	return kind == "Composition" && xp.Group(apiVersion) == xp.GroupAPIExtensions
}

func IsXRD(apiVersion, kind string) bool {
	return kind == "CompositeResourceDefinition" && xp.Group(apiVersion) == xp.GroupAPIExtensions
}

// IsLegacy reports whether a Composition object is in mode Resources.
func IsLegacy(obj map[string]any) bool {
	m := jsonobj.String(obj, "spec", "mode")
	return m == "" || m == "Resources"
}

// SlimDoc parses a document that looks like a Composition into YAML nodes
// and, when it is one, returns its findings and what the index needs:
// apiVersion, kind, metadata.name and labels, spec.compositeTypeRef and
// spec.mode, and whether spec.resources, spec.patchSets and
// spec.environment are set. It returns ok false for anything else (which
// the caller decodes fully).
func SlimDoc(r manifest.Document) (DocInfo, bool, error) {
	if j, ok := manifest.PlainJSON(r.Raw); ok {
		// Plain block YAML (as generated and converted Compositions
		// mostly are) reads faster as JSON.
		return SlimPlain(r, j)
	}
	return SlimNodes(r)
}

// SlimNodes is slimDoc through YAML nodes.
func SlimNodes(r manifest.Document) (DocInfo, bool, error) {
	n, err := r.Node()
	if err != nil {
		return DocInfo{}, false, err
	}
	// looseValue expands aliases: within the budget of every reader.
	if err := yamledit.CheckAliases(n); err != nil {
		return DocInfo{}, false, err
	}
	if n.Kind != yaml3.DocumentNode || len(n.Content) != 1 {
		return DocInfo{}, false, nil
	}
	return slimLoose(r, looseValue(n.Content[0]))
}

// SlimPlain is slimDoc for a document in the plain subset of block YAML,
// from its JSON. In that subset every scalar reads as its own text, a
// string, a boolean, null or a decimal integer, so the loose values are
// those looseValue gives.
func SlimPlain(r manifest.Document, j []byte) (DocInfo, bool, error) {
	var v any
	if m, ok := jsonobj.DecodePlainObject(j); ok {
		v = m
	} else {
		dec := json.NewDecoder(bytes.NewReader(j))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			return DocInfo{}, false, err
		}
	}
	return slimLoose(r, looseJSON(v))
}

// slimLoose is slimDoc once the document is loose values (looseValue's or
// looseJSON's): ok false unless they are a Composition.
func slimLoose(r manifest.Document, v any) (DocInfo, bool, error) {
	loose, ok := v.(map[string]any)
	if !ok || !IsComposition(jsonobj.AsString(loose["apiVersion"]), jsonobj.AsString(loose["kind"])) {
		return DocInfo{}, false, nil
	}
	d := newDocInfo(r.Index, -1, r.Line, loose)
	d.Findings = docFindings(d, false)
	d.PTStep = ptStepOf(loose)
	d.analysed = true
	d.Obj = SlimComposition(loose)
	return d, true, nil
}

// looseJSON turns decoded JSON (numbers as json.Number, or int64: the
// plain subset's numbers are integers written as encoding/json writes
// them) into loose values: every scalar its text, nil for null.
func looseJSON(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			t[k] = looseJSON(e)
		}
		return t
	case []any:
		for i, e := range t {
			t[i] = looseJSON(e)
		}
		return t
	case bool:
		return strconv.FormatBool(t)
	case json.Number:
		return t.String()
	case int64:
		return strconv.FormatInt(t, 10)
	}
	return v
}

// SlimComposition keeps what the index needs of a Composition.
func SlimComposition(obj map[string]any) map[string]any {
	m := map[string]any{"apiVersion": obj["apiVersion"], "kind": obj["kind"]}
	if md, ok := obj["metadata"].(map[string]any); ok {
		sm := map[string]any{"name": md["name"], "labels": md["labels"]}
		if ann, ok := md["annotations"].(map[string]any); ok && ann[v2map.Annotation] != nil {
			// The legacy type of a v2 conversion: --base finds its legacy form by it.
			sm["annotations"] = map[string]any{v2map.Annotation: ann[v2map.Annotation]}
		}
		m["metadata"] = sm
	}
	spec := map[string]any{}
	if sp, ok := obj["spec"].(map[string]any); ok {
		spec["compositeTypeRef"] = sp["compositeTypeRef"]
		if mode, ok := sp["mode"]; ok {
			spec["mode"] = mode
		}
		if types, ok := sp[ComposedTypesKey]; ok {
			spec[ComposedTypesKey] = types // Slim already.
		} else if types := composedTypes(sp); len(types) > 0 {
			spec[ComposedTypesKey] = types
		}
		// Kustomize checks only ask whether these are set.
		for _, k := range kustomize.CompositionPaths {
			if _, ok := sp[k]; ok {
				spec[k] = true
			}
		}
	}
	m["spec"] = spec
	return m
}

// ComposedTypesKey keeps, in a slim Composition's spec, the types its
// templates compose ("apiVersion|kind"): the XRDs of nested XRs are given
// to the converter with the Composition's own (--target v2 composes
// their v2 types, C458).
const ComposedTypesKey = "xpmigrate.composedTypes"

// composedTypes lists the types the templates of a Composition's spec
// compose: of spec.resources and of patch-and-transform step inputs.
func composedTypes(spec map[string]any) []any {
	var out []any
	seen := map[string]bool{}
	add := func(res any) {
		list, _ := res.([]any)
		for _, t := range list {
			tm, _ := t.(map[string]any)
			base, _ := tm["base"].(map[string]any)
			k := jsonobj.AsString(base["apiVersion"]) + "|" + jsonobj.AsString(base["kind"])
			if base != nil && !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	add(spec["resources"])
	steps, _ := spec["pipeline"].([]any)
	for _, st := range steps {
		sm, _ := st.(map[string]any)
		in, _ := sm["input"].(map[string]any)
		add(in["resources"])
	}
	return out
}

// looseValue turns a YAML node into plain values with every scalar a
// string (nil for null): enough for names, labels, modes, patch types and
// field paths, and much cheaper than decoding as the API server would.
func looseValue(n *yaml3.Node) any {
	n = Resolve(n)
	if n == nil {
		return nil
	}
	switch n.Kind {
	case yaml3.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := Resolve(n.Content[i])
			if k.Tag == "!!merge" {
				if mm, ok := looseValue(n.Content[i+1]).(map[string]any); ok {
					for mk, mv := range mm {
						if _, set := m[mk]; !set {
							m[mk] = mv
						}
					}
				}
				continue
			}
			m[k.Value] = looseValue(n.Content[i+1])
		}
		return m
	case yaml3.SequenceNode:
		s := make([]any, len(n.Content))
		for i, c := range n.Content {
			s[i] = looseValue(c)
		}
		return s
	case yaml3.ScalarNode:
		if n.Tag == "!!null" {
			return nil
		}
		return n.Value
	}
	return nil
}

// Resolve follows aliases.
func Resolve(n *yaml3.Node) *yaml3.Node {
	for n != nil && n.Kind == yaml3.AliasNode {
		n = n.Alias
	}
	return n
}
