package verify

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/xpmigrate/xpmigrate/render/verify/gaps"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/redact"
	"github.com/xpmigrate/xpmigrate/internal/xp"
	"github.com/xpmigrate/xpmigrate/render"
)

// DefaultResourceName is the name the converter gives an anonymous
// template: `resource-<index>`, 0-based (docs/semantics/conversion.md#template-names).
func DefaultResourceName(i int) string { return "resource-" + strconv.Itoa(i) }

// Compare compares what one reconcile of the same XR left on the legacy
// side and on the pipeline side, and returns every difference, unclassified,
// in a stable order: the error, then per composed resource (legacy template
// order, then resources only the pipeline has) its presence, fields,
// readiness and garbage collection, then the XR's fields, conditions and
// connection details.
//
// Only what legitimately differs is normalised away (docs/semantics/legacy.md#determinism,
// docs/reference/gaps.md#known-gaps): generated name suffixes (both sides' names for one
// resource compare equal wherever they appear), empty uids, server fields
// (uid, resourceVersion, generation, creationTimestamp, managedFields),
// condition times and messages, the publication time of connection
// details, claim labels with empty values (D48), and the order and empty
// entries of spec.resourceRefs (D7). Numbers compare by value, so an int64
// and a float64 holding the same integer are equal.
func Compare(legacy, pipeline Side, o CompareOptions) []Difference {
	names := o.ResourceName
	if names == nil {
		names = DefaultResourceName
	}
	// Generated names of either side, and the placeholders that replace
	// them everywhere on both sides.
	repl := replacer{}
	objNames := map[string]string{}
	generatedNames(legacy.Outcome, names, &repl, objNames)
	generatedNames(pipeline.Outcome, names, &repl, objNames)
	l := newView(legacy, names, repl, objNames)
	p := newView(pipeline, names, repl, objNames)

	var out []Difference
	add := func(d Difference) {
		d.SetRaw(d.Legacy, d.Pipeline)
		out = append(out, d)
	}

	if (legacy.Err == nil) != (pipeline.Err == nil) {
		d := Difference{Aspect: AspectError}
		if legacy.Err != nil {
			d.Legacy = present(legacy.Err.Error())
		}
		if pipeline.Err != nil {
			d.Pipeline = present(pipeline.Err.Error())
		}
		add(d)
	}

	for _, name := range resourceNames(l, p) {
		lc, lok := l.composed[name]
		pc, pok := p.composed[name]
		lr, pr := lok && lc.rendered(), pok && pc.rendered()
		switch {
		case lr && pr:
			if sameNormalized(lc.raw, pc.raw, repl) {
				break
			}
			ld, pd := lc.desired(), pc.desired()
			diffValues(nil, ld, pd, func(path Path, a, b *Value) {
				// Secret values show as digests; rules read them raw.
				d := Difference{Aspect: AspectResource, Resource: name, Path: path, Legacy: redactedAt(ld, path, a), Pipeline: redactedAt(pd, path, b)}
				d.SetRaw(a, b)
				out = append(out, d)
			})
		case lr || pr:
			d := Difference{Aspect: AspectPresence, Resource: name}
			var rl, rp *Value
			if lr {
				d.Legacy, rl = present(redact.Object(lc.desired())), present(lc.desired())
			}
			if pr {
				d.Pipeline, rp = present(redact.Object(pc.desired())), present(pc.desired())
			}
			d.SetRaw(rl, rp)
			out = append(out, d)
		}
		if lok && pok {
			if lc.ready != pc.ready {
				add(Difference{Aspect: AspectReadiness, Resource: name, Legacy: present(lc.ready), Pipeline: present(pc.ready)})
			}
			if lc.synced != pc.synced && lr && pr {
				add(Difference{Aspect: AspectSynced, Resource: name, Legacy: present(lc.synced), Pipeline: present(pc.synced)})
			}
		}
		if l.deleted[name] != p.deleted[name] {
			add(Difference{Aspect: AspectDeleted, Resource: name, Legacy: present(l.deleted[name]), Pipeline: present(p.deleted[name])})
		}
	}

	diffValues(nil, l.xr, p.xr, func(path Path, a, b *Value) {
		add(Difference{Aspect: AspectXR, Path: path, Legacy: a, Pipeline: b})
	})

	for _, t := range []string{render.ConditionTypeReady, render.ConditionTypeSynced} {
		lc, lok := l.conditions[t]
		pc, pok := p.conditions[t]
		if lok == pok && (!lok || (lc.Status == pc.Status && lc.Reason == pc.Reason)) {
			continue
		}
		d := Difference{Aspect: AspectCondition, Path: Path{{Field: t}}}
		if lok {
			d.Legacy = present(lc.object())
		}
		if pok {
			d.Pipeline = present(pc.object())
		}
		add(d)
	}

	for _, k := range unionKeys(l.conn, p.conn) {
		lv, lok := l.conn[k]
		pv, pok := p.conn[k]
		if lok == pok && bytes.Equal(lv, pv) {
			continue
		}
		d := Difference{Aspect: AspectConnection, Path: Path{{Field: k}}}
		show := func(b []byte) *Value {
			if o.ShownConnectionDetails[k] {
				return present(string(b))
			}
			return present(redact.Digest(b))
		}
		var rl, rp *Value
		if lok {
			d.Legacy, rl = show(lv), present(string(lv))
		}
		if pok {
			d.Pipeline, rp = show(pv), present(string(pv))
		}
		d.SetRaw(rl, rp)
		out = append(out, d)
	}
	return out
}

// redactedAt returns v, the value at path in the desired object obj, as a
// report may show it: a secret value (internal/redact) by length and hash.
func redactedAt(obj map[string]any, path Path, v *Value) *Value {
	if v == nil {
		return nil
	}
	p := make([]any, len(path))
	for i, s := range path {
		if s.IsIndex {
			p[i] = s.Index
		} else {
			p[i] = s.Field
		}
	}
	return present(redact.Value(obj, p, v.V))
}

// A view is one side's outcome, normalised for comparison.
type view struct {
	composed   map[string]*composedView
	order      []string
	deleted    map[string]bool
	xr         map[string]any
	conditions map[string]condition
	conn       map[string][]byte
}

type composedView struct {
	// raw is the desired object as rendered; desired is it normalised,
	// built on first use: most resources are equal on both sides as
	// rendered, and need no normalised copy.
	raw           map[string]any
	normalized    map[string]any
	repl          replacer
	isRendered    bool
	ready, synced bool
}

func (c *composedView) rendered() bool { return c.isRendered && c.raw != nil }

func (c *composedView) desired() map[string]any {
	if c.normalized == nil && c.raw != nil {
		c.normalized = normalizeObject(c.raw, c.repl)
	}
	return c.normalized
}

type condition struct {
	Status, Reason, Message string
}

func (c condition) object() map[string]any {
	o := map[string]any{"status": c.Status, "reason": c.Reason}
	if c.Message != "" {
		o["message"] = c.Message
	}
	return o
}

func newView(s Side, names func(int) string, repl replacer, objName map[string]string) *view {
	v := &view{
		composed:   map[string]*composedView{},
		deleted:    map[string]bool{},
		conditions: map[string]condition{},
		conn:       map[string][]byte{},
	}
	out := s.Outcome
	if out == nil {
		return v
	}

	for _, cd := range out.Composed {
		name := gaps.ResourceName(cd, names)
		if _, dup := v.composed[name]; !dup {
			v.order = append(v.order, name)
		}
		v.composed[name] = &composedView{
			raw:        cd.Desired,
			repl:       repl,
			isRendered: cd.Rendered,
			ready:      cd.Ready,
			synced:     cd.Synced,
		}
	}
	for _, d := range out.Deleted {
		if n, ok := objName[d]; ok {
			v.deleted[n] = true
			continue
		}
		v.deleted[d] = true
	}

	xr := out.EffectiveXR
	if xr == nil {
		xr = out.XR
	}
	xr = normalizeObject(xr, repl)
	if xr == nil {
		xr = map[string]any{}
	}
	if st, ok := xr["status"].(map[string]any); ok {
		for _, c := range jsonobj.AsList(st["conditions"]) {
			cm, _ := c.(map[string]any)
			t, _ := cm["type"].(string)
			if t != render.ConditionTypeReady && t != render.ConditionTypeSynced {
				continue
			}
			s, _ := cm["status"].(string)
			r, _ := cm["reason"].(string)
			m, _ := cm["message"].(string)
			v.conditions[t] = condition{Status: s, Reason: r, Message: m}
		}
		delete(st, "conditions")
		if cd, ok := st["connectionDetails"].(map[string]any); ok {
			delete(cd, "lastPublishedTime")
			if len(cd) == 0 {
				delete(st, "connectionDetails")
			}
		}
	}
	// Both sides get a spec and a status, so that a field only one side
	// wrote is reported at its own path.
	for _, k := range []string{"spec", "status"} {
		if _, ok := xr[k].(map[string]any); !ok {
			xr[k] = map[string]any{}
		}
	}
	// A modern XR (Crossplane v2) keeps its references in
	// spec.crossplane.resourceRefs.
	spec, _ := xr["spec"].(map[string]any)
	cp, _ := spec["crossplane"].(map[string]any)
	for _, m := range []map[string]any{spec, cp} {
		if refs, ok := m["resourceRefs"].([]any); ok {
			m["resourceRefs"] = normalizeRefs(refs)
			if len(m["resourceRefs"].([]any)) == 0 { //nolint:forcetypeassert // Set just above.
				delete(m, "resourceRefs")
			}
		}
	}
	v.xr = xr
	// Connection details compare with generated names as placeholders, as
	// every other value does.
	for k, b := range out.ConnectionDetails {
		if r := repl.replace(string(b)); r != string(b) {
			b = []byte(r)
		}
		v.conn[k] = b
	}
	return v
}

// shownConnectionDetails returns the XR connection details whose values
// reports may show: those that every definition in the given Compositions
// reads from a field (FromFieldPath) or a constant (FromValue). A
// connection detail that any definition reads from the composed resource's
// connection Secret (FromConnectionSecretKey) stays redacted, as does one
// that neither Composition defines.
func shownConnectionDetails(models ...*gaps.Model) map[string]bool {
	shown := map[string]bool{}
	secret := map[string]bool{}
	for _, m := range models {
		if m == nil {
			continue
		}
		for _, t := range m.Templates {
			for _, cd := range t.ConnectionDetails {
				name, fromSecret := connectionDetailOrigin(cd)
				if name == "" {
					continue
				}
				if fromSecret {
					secret[name] = true
					continue
				}
				shown[name] = true
			}
		}
	}
	for k := range secret {
		delete(shown, k)
	}
	return shown
}

// connectionDetailOrigin returns a connection detail's name (defaulted to
// its secret key when it reads one) and whether its value comes from a
// Secret. A detail without a type is typed by the field it sets, as the
// legacy engine infers it; one whose origin cannot be told counts as a
// Secret.
func connectionDetailOrigin(cd map[string]any) (string, bool) {
	name, _ := cd["name"].(string)
	key, _ := cd["fromConnectionSecretKey"].(string)
	typ, _ := cd["type"].(string)
	if typ == "" {
		switch {
		case key != "":
			typ = "FromConnectionSecretKey"
		case cd["fromFieldPath"] != nil:
			typ = "FromFieldPath"
		case cd["value"] != nil:
			typ = "FromValue"
		}
	}
	if name == "" {
		name = key
	}
	return name, typ != "FromFieldPath" && typ != "FromValue"
}

// generatedNames records an outcome's composed resources' object names
// (objName: object name to resource name) and those that were generated
// (repl).
func generatedNames(out *render.Outcome, names func(int) string, repl *replacer, objName map[string]string) {
	if out == nil {
		return
	}
	for _, cd := range out.Composed {
		name := gaps.ResourceName(cd, names)
		for _, obj := range [2]map[string]any{cd.Desired, cd.Applied} {
			n, gn := jsonobj.String(obj, "metadata", "name"), jsonobj.String(obj, "metadata", "generateName")
			if n == "" {
				continue
			}
			objName[n] = name
			if generatedName(n, gn) {
				repl.add(n, "<generated:"+name+">")
			}
		}
	}
}

// resourceNames lists the resources of both sides: the legacy side's in
// template order, then those only the pipeline side has.
func resourceNames(l, p *view) []string {
	seen := map[string]bool{}
	var out []string
	for _, n := range append(append([]string(nil), l.order...), p.order...) {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	var extra []string
	for _, m := range []map[string]bool{l.deleted, p.deleted} {
		for n := range m {
			if !seen[n] {
				seen[n] = true
				extra = append(extra, n)
			}
		}
	}
	sort.Strings(extra)
	return append(out, extra...)
}

// generatedName reports whether name is generateName followed by the
// suffix the API server (5 characters) or the pipeline engine's
// deterministic generator (12 hex digits) appends; generateName may have
// been cut to make room (58 and 51 characters).
func generatedName(name, generateName string) bool {
	if generateName == "" {
		return false
	}
	for _, cut := range []int{len(generateName), 58, 51} {
		prefix := generateName[:min(cut, len(generateName))]
		if len(name) <= len(prefix) || name[:len(prefix)] != prefix {
			continue
		}
		rest := name[len(prefix):]
		if (len(rest) == 5 || len(rest) == 12) && lowerAlnum(rest) {
			return true
		}
	}
	return false
}

func lowerAlnum(s string) bool {
	for _, r := range s {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// normalizeObject returns a deep copy of o with generated names replaced,
// server fields removed, empty claim labels removed (D48), empty owner
// reference uids removed, and integral floats turned into int64.
func normalizeObject(o map[string]any, repl replacer) map[string]any {
	if o == nil {
		return nil
	}
	out, _ := normalizeValue(o, repl).(map[string]any)
	md, ok := out["metadata"].(map[string]any)
	if !ok {
		return out
	}
	for _, f := range xp.ServerFields {
		delete(md, f)
	}
	if l, ok := md["labels"].(map[string]any); ok {
		for k, v := range l {
			if claimLabel(k, v) {
				delete(l, k)
			}
		}
		if len(l) == 0 {
			delete(md, "labels")
		}
	}
	for _, r := range jsonobj.AsList(md["ownerReferences"]) {
		if rm, ok := r.(map[string]any); ok && rm["uid"] == "" {
			delete(rm, "uid")
		}
	}
	return out
}

func normalizeValue(v any, repl replacer) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = normalizeValue(e, repl)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = normalizeValue(e, repl)
		}
		return out
	case string:
		return repl.replace(t)
	case float64:
		if t == math.Trunc(t) && math.Abs(t) < 1<<63 {
			return int64(t)
		}
		return t
	case int:
		return int64(t)
	case int32:
		return int64(t)
	default:
		return v
	}
}

// A replacer replaces generated names by placeholders: a whole string
// equal to a name, or a name inside a longer string (a secret name made from
// it, say), longest names first.
type replacer struct {
	exact map[string]string
	order []string
}

func (r *replacer) add(from, to string) {
	if r.exact == nil {
		r.exact = map[string]string{}
	}
	if _, ok := r.exact[from]; ok {
		return
	}
	r.exact[from] = to
	// Longest first, then in lexical order.
	i, _ := slices.BinarySearchFunc(r.order, from, func(e, t string) int {
		if len(e) != len(t) {
			return len(t) - len(e)
		}
		return strings.Compare(e, t)
	})
	r.order = slices.Insert(r.order, i, from)
}

func (r replacer) replace(s string) string {
	if len(r.exact) == 0 {
		return s
	}
	if to, ok := r.exact[s]; ok {
		return to
	}
	for _, from := range r.order {
		if len(from) >= 8 && strings.Contains(s, from) {
			s = strings.ReplaceAll(s, from, r.exact[from])
		}
	}
	return s
}

// normalizeRefs keeps the named refs, sorted (D7, docs/reference/gaps.md#known-gaps).
func normalizeRefs(refs []any) []any {
	type keyed struct {
		key string
		ref any
	}
	named := make([]keyed, 0, len(refs))
	for _, r := range refs {
		rm, _ := r.(map[string]any)
		if n, _ := rm["name"].(string); n == "" {
			continue
		}
		named = append(named, keyed{key: refKey(rm), ref: rm})
	}
	sort.SliceStable(named, func(i, j int) bool {
		return named[i].key < named[j].key
	})
	out := make([]any, len(named))
	for i, k := range named {
		out[i] = k.ref
	}
	return out
}

func refKey(r any) string {
	rm, _ := r.(map[string]any)
	return refPart(rm["apiVersion"]) + "/" + refPart(rm["kind"]) + "/" + refPart(rm["name"])
}

// refPart writes a reference's field as fmt.Sprint does.
func refPart(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return fmt.Sprint(v)
}

// diffValues reports every leaf where a and b differ: object keys are
// compared one by one, lists of equal length element by element, anything
// else as a whole.
func diffValues(path Path, a, b any, report func(Path, *Value, *Value)) {
	// One path grows and shrinks as the walk descends and returns; report
	// gets a copy. Copying the path at every level instead costs the
	// square of the depth (2 GB for a value nested 10,000 lists deep).
	buf := slices.Clone(path)
	diffInto(&buf, a, b, func(p Path, x, y *Value) { report(slices.Clone(p), x, y) })
}

// diffInto is diffValues on the shared path *path, which it leaves as it
// found it.
func diffInto(path *Path, a, b any, report func(Path, *Value, *Value)) {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if aok && bok {
		for _, k := range unionKeys(am, bm) {
			av, ain := am[k]
			bv, bin := bm[k]
			*path = append(*path, Segment{Field: k})
			switch {
			case ain && bin:
				diffInto(path, av, bv, report)
			case ain:
				report(*path, present(av), nil)
			default:
				report(*path, nil, present(bv))
			}
			*path = (*path)[:len(*path)-1]
		}
		return
	}
	al, aok := a.([]any)
	bl, bok := b.([]any)
	if aok && bok && len(al) == len(bl) {
		for i := range al {
			*path = append(*path, Segment{Index: i, IsIndex: true})
			diffInto(path, al[i], bl[i], report)
			*path = (*path)[:len(*path)-1]
		}
		return
	}
	if !jsonobj.Equal(a, b) {
		report(*path, present(a), present(b))
	}
}

func unionKeys[V any](a, b map[string]V) []string {
	seen := make(map[string]bool, len(a)+len(b))
	out := make([]string, 0, len(a)+len(b))
	for k := range a {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	for k := range b {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

func present(v any) *Value { return &Value{V: v} }
