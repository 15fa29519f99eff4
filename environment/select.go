package environment

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"

	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"
	"github.com/pkg/errors"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// A Ref is one entry of an XR's spec.environmentConfigRefs.
type Ref struct {
	APIVersion string `json:"apiVersion,omitempty"`
	Kind       string `json:"kind,omitempty"`
	Name       string `json:"name,omitempty"`
}

// refsPath is where an XR keeps its selected EnvironmentConfigs.
const refsPath = "spec.environmentConfigRefs"

// A Selection reports what Select did.
type Selection struct {
	// Resolved is true when Select built a fresh list and wrote it to the
	// XR; false when there was nothing to select or the XR's existing refs
	// were kept (policy.resolve is not Always).
	Resolved bool

	// Refs are the XR's spec.environmentConfigRefs after selection, in
	// order: the layers that Fetch will merge.
	Refs []Ref

	// Sources has one entry per spec.environment.environmentConfigs entry
	// when Resolved.
	Sources []SourceSelection

	// Ties are groups of configs that Multiple mode could not order
	// because their sort keys were equal.
	Ties []Tie
}

// SourceSelection is what one environmentConfigs entry selected.
type SourceSelection struct {
	// Labels is the label selector a Selector listed configs with; nil
	// for a Reference, and for a Selector none of whose labels resolved
	// (then nothing is listed).
	Labels map[string]string

	// Names are the configs it selected, in order.
	Names []string
}

// A Tie is a run of configs whose sort keys were equal. Crossplane sorts
// them with an unstable sort, so their relative order — and therefore which
// wins when merging, or which survive maxMatch — is not guaranteed by
// Crossplane. The toolkit orders them by name (docs/semantics/legacy.md#determinism).
type Tie struct {
	// Source is the index of the environmentConfigs entry (or input
	// source, for the function).
	Source int

	// SortByFieldPath is the field path the configs were sorted by.
	SortByFieldPath string

	// Value is the shared sort key.
	Value any

	// Names are the tied configs, in the order chosen.
	Names []string
}

// String describes the tie as a warning.
func (t Tie) String() string {
	return fmt.Sprintf("environmentConfigs[%d]: EnvironmentConfigs %s have the same %s (%v): order not guaranteed by Crossplane, ordered by name",
		t.Source, quoteNames(t.Names), t.SortByFieldPath, t.Value)
}

// A SelectError is a failed selection. Its text is upstream's; its fields
// say which part of the Composition (native) or function input failed.
type SelectError struct {
	// Source is the index of the failing environmentConfigs entry.
	Source int

	// Label is the index of the failing label matcher, or -1.
	Label int

	// FieldPath is the field path that could not be read: a label's
	// valueFromFieldPath on the XR, or the selector's sortByFieldPath on
	// a candidate config. Empty when no field path was involved.
	FieldPath string

	// Config names the candidate config whose sort key failed, when
	// known.
	Config string

	// Reason says which step of the selection failed; empty for a broken
	// source (no ref, no selector, an unknown type or mode).
	Reason SelectReason

	// input is true for the function's input, false for a Composition.
	input bool

	err error
}

func (e *SelectError) Error() string { return e.err.Error() }

// Unwrap returns the underlying error, e.g. a fieldpath not-found error.
func (e *SelectError) Unwrap() error { return e.err }

// Field is the field the error is about, e.g.
// spec.environment.environmentConfigs[1].selector.matchLabels[0] in a
// Composition, or spec.environmentConfigs[1].selector.matchLabels[0] in the
// function's input.
func (e *SelectError) Field() *field.Path {
	base := specPath
	if e.input {
		base = field.NewPath("spec")
	}
	p := base.Child("environmentConfigs").Index(e.Source)
	switch {
	case e.Label >= 0:
		return p.Child("selector", "matchLabels").Index(e.Label)
	case e.FieldPath != "":
		return p.Child("selector", "sortByFieldPath")
	default:
		return p
	}
}

// A SelectReason says which step of a selection failed.
type SelectReason string

// Reasons of a SelectError.
const (
	// SelectReasonLabel: a label's value could not be read from the XR.
	SelectReasonLabel SelectReason = "Label"

	// SelectReasonSingle: a Single-mode selector matched no config, or
	// more than one.
	SelectReasonSingle SelectReason = "Single"

	// SelectReasonMinMatch: a Multiple-mode selector matched fewer configs
	// than its minMatch.
	SelectReasonMinMatch SelectReason = "MinMatch"

	// SelectReasonSort: the selected configs could not be sorted by the
	// selector's sortByFieldPath (missing, or of mixed or unsortable
	// types).
	SelectReasonSort SelectReason = "Sort"
)

// Select picks the EnvironmentConfigs of a composite resource as Crossplane
// v1.17.6 does before composing (docs/semantics/legacy.md#selecting-environmentconfigs), and writes them to the
// XR's spec.environmentConfigRefs.
//
// Nothing is selected when the Spec is nil or lists no environmentConfigs
// (any refs already on the XR, even hand-written, stay and are fetched), or
// when the XR already has refs and policy.resolve is not Always: selection
// happens once and is then pinned. Otherwise the list is rebuilt from
// scratch, source by source. The XR is Kubernetes-decoded content
// (integers int64); label values read from it are printed with %v.
//
// Errors are Crossplane's, wrapped in "cannot select environment", with a
// *SelectError inside naming the source, label and field path. The spec is
// read as given; Default it first, as the API server would have.
func (s *Spec) Select(xr map[string]any, configs *Set) (*Selection, error) {
	current := currentRefs(xr)
	if s == nil || len(s.EnvironmentConfigs) == 0 || (len(current) > 0 && !s.resolveAlways()) {
		return &Selection{Refs: current}, nil
	}

	sel := &Selection{Resolved: true, Refs: make([]Ref, 0, len(s.EnvironmentConfigs))}
	for i, src := range s.EnvironmentConfigs {
		var ss SourceSelection
		var err error
		switch deref(src.Type) {
		case SourceTypeReference:
			if src.Ref == nil {
				// Upstream dereferences a nil ref and panics; validation
				// rejects such a Composition first.
				err = &SelectError{Source: i, Label: -1, err: errors.Errorf("failed to build reference at index %d: ref is required", i)}
				break
			}
			ss.Names = []string{src.Ref.Name}
		case SourceTypeSelector:
			ss, err = selectByLabels(i, src.Selector, xr, configs, sel)
		default:
			err = &SelectError{Source: i, Label: -1, err: errors.Errorf("invalid source type '%s'", deref(src.Type))}
		}
		if err != nil {
			return nil, errors.Wrap(err, "cannot select environment")
		}
		sel.Sources = append(sel.Sources, ss)
		for _, n := range ss.Names {
			sel.Refs = append(sel.Refs, Ref{APIVersion: APIVersionV1Alpha1, Kind: KindConfig, Name: n})
		}
	}
	if err := writeRefs(xr, sel.Refs); err != nil {
		return nil, errors.Wrap(err, "cannot select environment")
	}
	return sel, nil
}

func selectByLabels(i int, s *Selector, xr map[string]any, configs *Set, sel *Selection) (SourceSelection, error) {
	ss := SourceSelection{}
	wrap := func(err error) error {
		return errors.Wrapf(err, "failed to build reference at index %d", i)
	}
	if s == nil {
		// Upstream dereferences a nil selector and panics; validation
		// rejects such a Composition first.
		return ss, &SelectError{Source: i, Label: -1, err: wrap(errors.New("selector is required"))}
	}

	labels := make(map[string]string, len(s.MatchLabels))
	for j, m := range s.MatchLabels {
		v, err := labelValue(m, xr)
		if err != nil {
			if fieldpath.IsNotFound(err) && m.optional() {
				continue
			}
			return ss, &SelectError{Source: i, Label: j, FieldPath: deref(m.ValueFromFieldPath), Reason: SelectReasonLabel,
				err: wrap(errors.Wrapf(err, "failed to resolve value for label at index %d", j))}
		}
		labels[m.Key] = v
	}

	// Crossplane lists through its informer cache, which matches labels
	// without parsing them: a value no label can have simply matches
	// nothing. The cache lists in no particular order; the toolkit lists
	// in name order.
	var candidates []Config
	if len(labels) > 0 {
		ss.Labels = labels
		candidates = configs.List(labels)
	}

	switch deref(s.Mode) {
	case SelectorModeSingle:
		if len(candidates) != 1 {
			return ss, &SelectError{Source: i, Label: -1, Reason: SelectReasonSingle,
				err: wrap(errors.Errorf("only 1 EnvironmentConfig can be selected in Single mode, found: %d", len(candidates)))}
		}
	case SelectorModeMultiple:
		if s.MinMatch != nil && uint64(len(candidates)) < *s.MinMatch {
			return ss, &SelectError{Source: i, Label: -1, Reason: SelectReasonMinMatch,
				err: wrap(errors.Errorf("expected at least %d EnvironmentConfig(s) with matching labels, found: %d", *s.MinMatch, len(candidates)))}
		}
		path := deref(s.SortByFieldPath)
		sorted, ties, err := sortNative(candidates, path)
		if err != nil {
			err.Source = i
			err.err = wrap(err.err)
			return ss, err
		}
		for _, t := range ties {
			t.Source = i
			sel.Ties = append(sel.Ties, t)
		}
		candidates = sorted
		if s.MaxMatch != nil && uint64(len(candidates)) > *s.MaxMatch {
			candidates = candidates[:*s.MaxMatch]
		}
	default:
		return ss, &SelectError{Source: i, Label: -1, err: wrap(errors.Errorf("unknown mode '%s'", deref(s.Mode)))}
	}

	ss.Names = make([]string, len(candidates))
	for k, c := range candidates {
		ss.Names[k] = c.Name
	}
	return ss, nil
}

// labelValue resolves one label matcher against the XR, as the native
// engine does: literal values as written, field path values printed with
// %v whatever their type.
func labelValue(m LabelMatcher, xr map[string]any) (string, error) {
	switch deref(m.Type) {
	case LabelMatcherTypeValue:
		if m.Value == nil {
			return "", errors.Errorf("%s is required by type %s", "value", LabelMatcherTypeValue)
		}
		return *m.Value, nil
	case LabelMatcherTypeFromCompositeFieldPath:
		if m.ValueFromFieldPath == nil {
			// Upstream names the wrong type here; kept.
			return "", errors.Errorf("%s is required by type %s", "valueFromFieldPath", LabelMatcherTypeValue)
		}
		v, err := fieldpath.Pave(xr).GetValue(*m.ValueFromFieldPath)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%v", v), nil
	}
	return "", errors.Errorf("invalid label matcher type '%s'", deref(m.Type))
}

// sortNative orders candidates by the value at path, as Multiple mode does:
// each value must exist and all must be strings, all int64 or all float64
// (as the Kubernetes decoder reads them). Candidates arrive in name order
// and equal keys keep it, which is how the toolkit breaks Crossplane's
// unspecified ties; the ties are reported.
func sortNative(candidates []Config, path string) ([]Config, []Tie, *SelectError) {
	keys := dataKeys(path)
	type keyed struct {
		c   Config
		val any
	}
	p := make([]keyed, len(candidates))
	var kind reflect.Kind
	for i, c := range candidates {
		o, err := c.object(keys)
		if err != nil {
			return nil, nil, &SelectError{Label: -1, Config: c.Name, FieldPath: path, Reason: SelectReasonSort, err: err}
		}
		v, err := fieldpath.Pave(o).GetValue(path)
		if err != nil {
			return nil, nil, &SelectError{Label: -1, Config: c.Name, FieldPath: path, Reason: SelectReasonSort, err: err}
		}
		var k reflect.Kind
		if v != nil {
			k = reflect.TypeOf(v).Kind()
		}
		switch k {
		case reflect.String, reflect.Int64, reflect.Float64:
		default:
			return nil, nil, &SelectError{Label: -1, Config: c.Name, FieldPath: path, Reason: SelectReasonSort, err: errors.Errorf("unexpected type %T", v)}
		}
		if i == 0 {
			kind = k
		} else if k != kind {
			return nil, nil, &SelectError{Label: -1, Config: c.Name, FieldPath: path, Reason: SelectReasonSort,
				err: errors.Errorf("not matching types, got %[1]v (%[1]T), expected %[2]v", v, kind)}
		}
		p[i] = keyed{c: c, val: v}
	}

	less := func(a, b any) bool {
		switch kind {
		case reflect.Float64:
			return a.(float64) < b.(float64) //nolint:forcetypeassert // Checked above.
		case reflect.Int64:
			return a.(int64) < b.(int64) //nolint:forcetypeassert // Checked above.
		default:
			return a.(string) < b.(string) //nolint:forcetypeassert // Checked above.
		}
	}
	sort.SliceStable(p, func(i, j int) bool { return less(p[i].val, p[j].val) })

	out := make([]Config, len(p))
	var ties []Tie
	for i := range p {
		out[i] = p[i].c
		if i > 0 && p[i].val == p[i-1].val {
			if n := len(ties); n > 0 && ties[n-1].Value == p[i].val && ties[n-1].Names[len(ties[n-1].Names)-1] == p[i-1].c.Name {
				ties[n-1].Names = append(ties[n-1].Names, p[i].c.Name)
				continue
			}
			ties = append(ties, Tie{SortByFieldPath: path, Value: p[i].val, Names: []string{p[i-1].c.Name, p[i].c.Name}})
		}
	}
	return out, ties, nil
}

// dataKeys says which data keys a field path may read from a config: nil
// for none, an empty (non-nil) slice for all of them.
func dataKeys(path string) []string {
	segs, err := fieldpath.Parse(path)
	if err != nil {
		// GetValue fails the same way whatever the object holds.
		return nil
	}
	if len(segs) == 0 || segs[0].Type != fieldpath.SegmentField || segs[0].Field != "data" {
		return nil
	}
	if len(segs) == 1 || segs[1].Type != fieldpath.SegmentField {
		return []string{}
	}
	return []string{segs[1].Field}
}

// currentRefs reads the XR's spec.environmentConfigRefs as Crossplane does:
// decoded into object references, anything undecodable ignored.
func currentRefs(xr map[string]any) []Ref {
	out := []Ref{}
	v, err := fieldpath.Pave(xr).GetValue(refsPath)
	if err != nil {
		return out
	}
	b, err := json.Marshal(v)
	if err != nil {
		return out
	}
	// Like crossplane-runtime, keep whatever decoded before an error.
	_ = json.Unmarshal(b, &out)
	return out
}

// writeRefs sets the XR's spec.environmentConfigRefs, dropping empty refs
// as crossplane-runtime does.
func writeRefs(xr map[string]any, refs []Ref) error {
	list := make([]any, 0, len(refs))
	for _, r := range refs {
		if r == (Ref{}) {
			continue
		}
		list = append(list, xp.ReferenceObject(r.APIVersion, r.Kind, "", r.Name))
	}
	if xr == nil {
		return errors.New("composite resource is nil")
	}
	// Crossplane ignores this error (e.g. spec is not an object).
	_ = fieldpath.Pave(xr).SetValue(refsPath, list)
	return nil
}
