package environment

import (
	"cmp"
	"encoding/json"
	stderrors "errors"
	"fmt"
	"reflect"
	"sort"

	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"
	"github.com/pkg/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	sigsjson "sigs.k8s.io/json"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/xp"
	pt "github.com/xpmigrate/xpmigrate/patchandtransform"
)

// ContextKeyEnvironment is the function context key the environment lives
// under, read by function-patch-and-transform and by later functions.
const ContextKeyEnvironment = xp.ContextKeyEnvironment

// Function input group, version and kind.
const (
	InputAPIVersion = xp.ECInputAPIVersion
	InputKind       = xp.ECInputKind
)

// A FunctionVersion is a release line of function-environment-configs. The
// lines differ in the protocol fields they speak, in error texts and in
// toFieldPath (docs/semantics/pipeline.md#environment-function-versions).
type FunctionVersion uint8

const (
	// FunctionV07 is v0.7.x: requirements.resources / required_resources
	// (Crossplane ≥ v2.0) and per-source toFieldPath. The zero value.
	FunctionV07 FunctionVersion = iota

	// FunctionV06 is v0.6.x: requirements.extra_resources /
	// extra_resources (Crossplane v1.x), no toFieldPath.
	FunctionV06
)

// String returns the version's name.
func (v FunctionVersion) String() string {
	switch v {
	case FunctionV07:
		return "v0.7"
	case FunctionV06:
		return "v0.6"
	default:
		return "unknown"
	}
}

// RequirementsField is the RunFunctionResponse requirements field this
// version fills.
func (v FunctionVersion) RequirementsField() string {
	if v == FunctionV06 {
		return "extra_resources"
	}
	return "resources"
}

// ResourcesField is the RunFunctionRequest field this version reads the
// fetched resources from.
func (v FunctionVersion) ResourcesField() string {
	if v == FunctionV06 {
		return "extra_resources"
	}
	return "required_resources"
}

// noun is how this version's error texts call a fetched resource.
func (v FunctionVersion) noun() string {
	if v == FunctionV06 {
		return "extra resource"
	}
	return "required resource"
}

// Input is the environmentconfigs.fn.crossplane.io/v1beta1 Input of
// function-environment-configs.
type Input struct {
	APIVersion string             `json:"apiVersion,omitempty"`
	Kind       string             `json:"kind,omitempty"`
	Metadata   *metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec       InputSpec          `json:"spec,omitempty"`
}

// InputSpec is the Input's spec. Unlike the native spec.environment it has
// no patches (those move to function-patch-and-transform) and no
// policy.resolve (the function selects again on every call).
type InputSpec struct {
	// DefaultData is the lowest-precedence layer. Nil when absent.
	DefaultData map[string]json.RawMessage `json:"defaultData,omitempty"`

	// EnvironmentConfigs is nil when absent, which makes the function do
	// nothing at all; an empty list is not absent.
	EnvironmentConfigs []InputSource `json:"environmentConfigs,omitempty"`

	Policy *InputPolicy `json:"policy,omitempty"`
}

// An InputSource is one entry of the Input's environmentConfigs.
type InputSource struct {
	Type     *SourceType `json:"type,omitempty"`
	Ref      *Reference  `json:"ref,omitempty"`
	Selector *Selector   `json:"selector,omitempty"`

	// ToFieldPath nests the selected configs' data under this path of the
	// environment (v0.7 only).
	ToFieldPath *string `json:"toFieldPath,omitempty"`
}

// InputPolicy is the Input's policy.
type InputPolicy struct {
	// Resolution applies to Reference sources only; absent is Required.
	Resolution *ResolutionPolicy `json:"resolution,omitempty"`
}

// A ResourceSelector asks the function's caller for resources: one
// requirement of the function's response.
type ResourceSelector struct {
	APIVersion string
	Kind       string

	// MatchName selects by name when MatchLabels is nil.
	MatchName string

	// MatchLabels selects by labels when non-nil.
	MatchLabels map[string]string
}

// Requirements are the resources a function asks for, by key.
type Requirements map[string]ResourceSelector

// Resources are the resources a function received, by requirement key.
// Objects are wire values: every number a float64.
type Resources map[string][]map[string]any

// Function reproduces function-environment-configs, without the function
// protocol: a render engine adapts its plain values to RunFunction.
type Function struct {
	// Version is the release line to reproduce; the zero value is v0.7.
	Version FunctionVersion
}

// DecodeInput decodes the function's input strictly, as the function SDK
// does: field names are case-sensitive and an unknown field at any depth is
// an error (so is toFieldPath before v0.7). No defaults are applied: the
// function applies them in code. JSON or YAML.
func (f Function) DecodeInput(b []byte) (*Input, error) {
	j, err := toJSON(b)
	if err != nil {
		return nil, errors.Wrap(err, "cannot decode function input")
	}
	in := &Input{}
	strict, err := sigsjson.UnmarshalStrict(j, in, sigsjson.DisallowUnknownFields)
	if err != nil {
		return nil, errors.Wrap(err, "cannot decode function input")
	}
	if len(strict) > 0 {
		return nil, errors.Wrap(stderrors.Join(strict...), "cannot decode function input")
	}
	if f.Version == FunctionV06 {
		for i, s := range in.Spec.EnvironmentConfigs {
			if s.ToFieldPath != nil {
				return nil, errors.Errorf("cannot decode function input: unknown field %q", fmt.Sprintf("spec.environmentConfigs[%d].toFieldPath", i))
			}
		}
	}
	return in, nil
}

// A FunctionRequest is what the function reads from a RunFunctionRequest.
type FunctionRequest struct {
	// Observed is the observed composite resource, as wire values.
	Observed map[string]any

	// Environment is the value of the context key
	// apiextensions.crossplane.io/environment; nil when absent.
	Environment map[string]any

	// Resources are the resources received for the function's earlier
	// requirements (required_resources in v0.7, extra_resources in
	// v0.6). Nil and empty are the same, as on the wire.
	Resources Resources
}

// A FunctionResponse is what the function puts in its RunFunctionResponse.
type FunctionResponse struct {
	// Requirements is nil when the function returned before building
	// them (the input has no environmentConfigs); otherwise non-nil,
	// possibly empty. It goes to the field Version.RequirementsField
	// names.
	Requirements Requirements

	// Environment is the new value of the context key
	// apiextensions.crossplane.io/environment, as wire values; nil when
	// the function leaves the context alone.
	Environment map[string]any

	// Ties are groups of configs Multiple mode could not order (the sort
	// is unstable upstream; the toolkit keeps the received order).
	Ties []Tie

	// Warnings say where the result depends on an order upstream does not
	// guarantee (toFieldPath groups that write the same keys).
	Warnings []string
}

// Run runs function-environment-configs once (docs/semantics/pipeline.md#one-environment-run). The
// first call of a reconcile receives no resources: the function returns its
// requirements only. The caller fetches them (Set.Fetch) and calls again;
// the second call returns the same requirements and the environment.
//
// Precedence, highest first: the selected configs (later over earlier), the
// environment already in the context, defaultData. The Internal
// Environment apiVersion and kind are set only when the result has
// neither.
//
// A non-nil error is the text of the FATAL result the function returns; the
// response then still carries the requirements, and no environment.
func (f Function) Run(in *Input, req FunctionRequest) (*FunctionResponse, error) {
	rsp := &FunctionResponse{}
	if in == nil || in.Spec.EnvironmentConfigs == nil {
		return rsp, nil
	}

	observed := pt.WireNumbers(req.Observed)
	xr, _ := observed.(map[string]any)
	r, err := requirements(in, xr)
	if err != nil {
		return rsp, errors.Wrap(err, msgBuildRequirements)
	}
	rsp.Requirements = r

	// An empty map is nil on the wire.
	if len(req.Resources) == 0 {
		return rsp, nil
	}

	groups, ties, err := f.selected(in, req.Resources)
	if err != nil {
		return rsp, errors.Wrap(err, "cannot get selected environment configs")
	}
	rsp.Ties = ties

	merged, warnings, err := mergeGroups(groups)
	if err != nil {
		return rsp, errors.Wrap(err, "cannot merge environment data")
	}
	rsp.Warnings = warnings

	if req.Environment != nil {
		ctx, _ := pt.WireNumbers(req.Environment).(map[string]any)
		merged = mergeMaps(ctx, merged)
	}
	if in.Spec.DefaultData != nil {
		dd, err := decodePlain(in.Spec.DefaultData)
		if err != nil {
			return rsp, errors.Wrap(err, "cannot unmarshal default data")
		}
		merged = mergeMaps(dd, merged)
	}
	if gvkEmpty(merged) {
		merged["apiVersion"] = EnvironmentAPIVersion
		merged["kind"] = EnvironmentKind
	}
	env, _ := pt.WireNumbers(merged).(map[string]any)
	rsp.Environment = env
	return rsp, nil
}

// requirements builds the function's requirements: one per source, keyed
// environment-config-<i>, except for selectors none of whose labels
// resolved. Label values read from the XR must be strings.
func requirements(in *Input, xr map[string]any) (Requirements, error) {
	out := make(Requirements, len(in.Spec.EnvironmentConfigs))
	for i, src := range in.Spec.EnvironmentConfigs {
		key := fmt.Sprintf("environment-config-%d", i)
		switch deref(src.Type) {
		case SourceTypeReference, "":
			if src.Ref == nil {
				// Upstream dereferences a nil ref and panics.
				return nil, errors.Errorf("%s: ref is required", key)
			}
			out[key] = ResourceSelector{APIVersion: APIVersionV1Beta1, Kind: KindConfig, MatchName: src.Ref.Name}
		case SourceTypeSelector:
			if src.Selector == nil {
				// Upstream dereferences a nil selector and panics.
				return nil, errors.Errorf("%s: selector is required", key)
			}
			labels := map[string]string{}
			for j, m := range src.Selector.MatchLabels {
				switch fnMatcherType(m) {
				case LabelMatcherTypeValue:
					if m.Value == nil {
						// Upstream dereferences a nil value and panics.
						return nil, errors.Errorf("%s: matchLabels[%d]: value is required", key, j)
					}
					labels[m.Key] = *m.Value
				case LabelMatcherTypeFromCompositeFieldPath:
					if m.ValueFromFieldPath == nil {
						// Upstream dereferences a nil path and panics.
						return nil, errors.Errorf("%s: matchLabels[%d]: valueFromFieldPath is required", key, j)
					}
					v, err := fieldpath.Pave(xr).GetString(*m.ValueFromFieldPath)
					if err != nil {
						if !m.optional() {
							return nil, &SelectError{input: true, Source: i, Label: j, FieldPath: *m.ValueFromFieldPath, Reason: SelectReasonLabel,
								err: errors.Wrapf(err, formatLabelValue, *m.ValueFromFieldPath)}
						}
						continue
					}
					labels[m.Key] = v
				}
			}
			if len(labels) == 0 {
				continue
			}
			out[key] = ResourceSelector{APIVersion: APIVersionV1Beta1, Kind: KindConfig, MatchLabels: labels}
		}
	}
	return out, nil
}

func fnMatcherType(m LabelMatcher) LabelMatcherType {
	if m.Type == nil || *m.Type == "" {
		return LabelMatcherTypeFromCompositeFieldPath
	}
	return *m.Type
}

func fnSelectorMode(s *Selector) SelectorMode {
	if s == nil || s.Mode == nil || *s.Mode == "" {
		return SelectorModeSingle
	}
	return *s.Mode
}

func fnSortByFieldPath(s *Selector) string {
	if s == nil || s.SortByFieldPath == nil || *s.SortByFieldPath == "" {
		return DefaultSortByFieldPath
	}
	return *s.SortByFieldPath
}

func fnSourceType(s InputSource) SourceType {
	if s.Type == nil || *s.Type == "" {
		return SourceTypeReference
	}
	return *s.Type
}

// group is the configs whose data goes under one toFieldPath.
type group struct {
	toFieldPath string
	configs     []map[string]any
}

// selected picks the configs of each source from the received resources,
// grouped by toFieldPath in order of first appearance.
func (f Function) selected(in *Input, res Resources) ([]*group, []Tie, error) {
	var groups []*group
	byPath := map[string]*group{}
	var ties []Tie
	for i, src := range in.Spec.EnvironmentConfigs {
		key := fmt.Sprintf("environment-config-%d", i)
		items, ok := res[key]
		if !ok {
			continue
		}
		objs := make([]map[string]any, len(items))
		for k, o := range items {
			objs[k], _ = pt.WireNumbers(o).(map[string]any)
		}

		var chosen []map[string]any
		switch fnSourceType(src) {
		case SourceTypeReference:
			name := ""
			if src.Ref != nil {
				name = src.Ref.Name
			}
			switch {
			case len(objs) == 0:
				if in.Spec.Policy != nil && in.Spec.Policy.Resolution != nil && *in.Spec.Policy.Resolution == ResolutionPolicyOptional {
					continue
				}
				return nil, nil, &SelectError{input: true, Source: i, Label: -1, err: errors.Wrapf(errors.Errorf(formatConfigNotFound, name),
					"cannot process environment config %q by reference, %q", name, key)}
			case len(objs) > 1:
				return nil, nil, &SelectError{input: true, Source: i, Label: -1, err: errors.Wrapf(errors.Errorf("expected exactly one %s %q, got %d", f.Version.noun(), name, len(objs)),
					"cannot process environment config %q by reference, %q", name, key)}
			}
			chosen = objs[:1]
		case SourceTypeSelector:
			var t []Tie
			var err error
			chosen, t, err = f.pick(src.Selector, objs)
			if err != nil {
				se := &SelectError{}
				if errors.As(err, &se) {
					se.Source = i
				} else {
					err = &SelectError{input: true, Source: i, Label: -1, err: err}
				}
				return nil, nil, errors.Wrapf(err, "cannot process environment config %q by selector", key)
			}
			for _, tie := range t {
				tie.Source = i
				ties = append(ties, tie)
			}
		default:
			// Unknown types are ignored.
			continue
		}
		if len(chosen) == 0 {
			continue
		}
		p := deref(src.ToFieldPath)
		g, ok := byPath[p]
		if !ok {
			g = &group{toFieldPath: p}
			byPath[p] = g
			groups = append(groups, g)
		}
		g.configs = append(g.configs, chosen...)
	}
	return groups, ties, nil
}

// pick applies a selector's mode to the received configs.
func (f Function) pick(s *Selector, objs []map[string]any) ([]map[string]any, []Tie, error) {
	switch fnSelectorMode(s) {
	case SelectorModeSingle:
		if len(objs) != 1 {
			return nil, nil, errors.Errorf("expected exactly one %s, got %d", f.Version.noun(), len(objs))
		}
		return objs, nil, nil
	case SelectorModeMultiple:
		if s.MinMatch != nil && uint64(len(objs)) < *s.MinMatch {
			return nil, nil, errors.Errorf("expected at least %d %ss, got %d", *s.MinMatch, f.Version.noun(), len(objs))
		}
		path := fnSortByFieldPath(s)
		sorted, ties, err := sortWire(objs, path)
		if err != nil {
			return nil, nil, &SelectError{input: true, Label: -1, FieldPath: path, err: err}
		}
		if s.MaxMatch != nil && uint64(len(sorted)) > *s.MaxMatch {
			sorted = sorted[:*s.MaxMatch]
		}
		return sorted, ties, nil
	default:
		return nil, nil, errors.Errorf("unknown selector mode %q", deref(s.Mode))
	}
}

// sortWire orders received configs by the value at path, as the function
// does: a missing (or null) value counts as the zero value of the type the
// others have; two different types, an empty path or an unsupported type
// are errors. Equal keys keep the received order, which is the toolkit's
// answer to the upstream sort being unstable; the ties are reported.
func sortWire(objs []map[string]any, path string) ([]map[string]any, []Tie, error) {
	if path == "" {
		return nil, nil, errors.New("cannot sort by empty field path")
	}
	type keyed struct {
		o   map[string]any
		val any
	}
	p := make([]keyed, len(objs))
	var t reflect.Type
	for i, o := range objs {
		v, err := fieldpath.Pave(o).GetValue(path)
		if err != nil && !fieldpath.IsNotFound(err) {
			return nil, nil, err
		}
		p[i] = keyed{o: o, val: v}
		if v == nil {
			continue
		}
		vt := reflect.TypeOf(v)
		switch {
		case t == nil:
			t = vt
		case t != vt:
			return nil, nil, errors.Errorf("cannot sort values of different types %q and %q", t, vt)
		}
	}
	out := make([]map[string]any, len(objs))
	if t == nil {
		copy(out, objs)
		return out, nil, nil
	}
	zero := reflect.Zero(t).Interface()
	for i := range p {
		if p[i].val == nil {
			p[i].val = zero
		}
	}
	var lessErr error
	less := func(a, b any) bool {
		var ok bool
		var err error
		switch t.Kind() {
		case reflect.Float64:
			ok, err = lessAs[float64](a, b)
		case reflect.Int64:
			ok, err = lessAs[int64](a, b)
		case reflect.String:
			ok, err = lessAs[string](a, b)
		default:
			err = errors.Errorf("unsupported type %q for sorting", t.Kind())
		}
		if err != nil && lessErr == nil {
			lessErr = err
		}
		return ok
	}
	sort.SliceStable(p, func(i, j int) bool { return less(p[i].val, p[j].val) })
	if lessErr != nil {
		return nil, nil, lessErr
	}

	var ties []Tie
	for i := range p {
		out[i] = p[i].o
		if i > 0 && p[i].val == p[i-1].val {
			name, prev := objectName(p[i].o), objectName(p[i-1].o)
			if n := len(ties); n > 0 && ties[n-1].Value == p[i].val && ties[n-1].Names[len(ties[n-1].Names)-1] == prev {
				ties[n-1].Names = append(ties[n-1].Names, name)
				continue
			}
			ties = append(ties, Tie{SortByFieldPath: path, Value: p[i].val, Names: []string{prev, name}})
		}
	}
	return out, ties, nil
}

func lessAs[T cmp.Ordered](a, b any) (bool, error) {
	av, ok := a.(T)
	if !ok {
		var t T
		return false, errors.Errorf("cannot compare type %T as %T", a, t)
	}
	bv, ok := b.(T)
	if !ok {
		var t T
		return false, errors.Errorf("cannot compare type %T as %T", b, t)
	}
	return cmp.Less(av, bv), nil
}

func objectName(o map[string]any) string {
	n, _ := fieldpath.Pave(o).GetString("metadata.name")
	return n
}

// mergeGroups merges each group's configs, later over earlier, with each
// config's data nested under the group's toFieldPath. Upstream visits the
// groups in Go map order; the toolkit visits them in order of first
// appearance and warns when that order can matter.
func mergeGroups(groups []*group) (map[string]any, []string, error) {
	merged := map[string]any{}
	perGroup := make([]map[string]any, len(groups))
	for gi, g := range groups {
		acc := map[string]any{}
		for _, c := range g.configs {
			data, err := configData(c, g.toFieldPath)
			if err != nil {
				return nil, nil, err
			}
			merged = mergeMaps(merged, data)
			if len(groups) > 1 {
				acc = mergeMaps(acc, data)
			}
		}
		perGroup[gi] = acc
	}
	var warnings []string
	for i := range groups {
		for j := i + 1; j < len(groups); j++ {
			if path, ok := conflict(perGroup[i], perGroup[j], ""); ok {
				warnings = append(warnings, fmt.Sprintf("toFieldPath groups %q and %q both set %s: upstream merges groups in random order, the toolkit in source order",
					groups[i].toFieldPath, groups[j].toFieldPath, path))
			}
		}
	}
	return merged, warnings, nil
}

// configData is what one config contributes: its data, nested under
// toFieldPath when set. Without toFieldPath, data must be an object (or
// null, which contributes nothing); a config without data fails.
func configData(c map[string]any, toFieldPath string) (map[string]any, error) {
	data := map[string]any{}
	if toFieldPath != "" {
		if err := fieldpath.Pave(data).SetValue(toFieldPath, c["data"]); err != nil {
			return nil, errors.Errorf("cannot get data from environment config %s into path %q", objectName(c), toFieldPath)
		}
		return data, nil
	}
	// Merging never mutates its inputs, so object data can be used as is;
	// anything else takes upstream's JSON round trip and its errors.
	if d, ok := c["data"].(map[string]any); ok {
		return d, nil
	}
	if err := fieldpath.Pave(c).GetValueInto("data", &data); err != nil {
		return nil, errors.Wrapf(err, "cannot get data from environment config %q", objectName(c))
	}
	return data, nil
}

// conflict reports the first path at which merging a and b in either order
// gives different results.
func conflict(a, b map[string]any, prefix string) (string, bool) {
	for _, k := range jsonobj.SortedKeys(a) {
		bv, ok := b[k]
		if !ok {
			continue
		}
		p := k
		if prefix != "" {
			p = prefix + "." + k
		}
		am, aok := a[k].(map[string]any)
		bm, bok := bv.(map[string]any)
		if aok && bok {
			if cp, ok := conflict(am, bm, p); ok {
				return cp, true
			}
			continue
		}
		if !reflect.DeepEqual(a[k], bv) {
			return p, true
		}
	}
	return "", false
}

// gvkEmpty reports whether an object has neither a group, a version nor a
// kind, as unstructured content reads them: a non-string counts as absent,
// and an unparsable apiVersion empties the whole group-version-kind.
func gvkEmpty(o map[string]any) bool {
	return (&unstructured.Unstructured{Object: o}).GroupVersionKind().Empty()
}
