package live

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"runtime"
	"sort"
	"strings"

	"github.com/pkg/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/xpmigrate/xpmigrate/internal/cluster"
	"github.com/xpmigrate/xpmigrate/internal/errkind"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/redact"
	"github.com/xpmigrate/xpmigrate/internal/xp"
	"github.com/xpmigrate/xpmigrate/render"
	"github.com/xpmigrate/xpmigrate/render/engine"
	"github.com/xpmigrate/xpmigrate/render/verify"
)

// A Cluster is what Verify reads: a cluster.Reader.
type Cluster interface {
	Composites(ctx context.Context, comp *unstructured.Unstructured, fn func(*cluster.Composite) error) error
	EnvironmentConfigs(ctx context.Context) ([]*unstructured.Unstructured, error)
	Missing() []cluster.Permission
}

// Options tune Verify.
type Options struct {
	// Verify are the options of the conversion check. Its Observed, Extra
	// and ObservedConnectionDetails are ignored: each XR's come from the
	// cluster. Convert converts the legacy Composition (once) when no
	// converted one is given, and the CompositionRevision an XR is pinned
	// to when it differs from the legacy Composition.
	Verify verify.Options

	// Progress, when set, is called after each XR with the number checked,
	// from one goroutine at a time, in list order.
	Progress func(n int)

	// Detailed bounds the XRs listed with their findings in full (their
	// emulation differences, drift and notes; and, in the conversion check,
	// the samples listed with their differences): the first Detailed XRs
	// with findings. Later XRs keep a compact record with counts
	// (XR.Unlisted, Report.Unlisted); every finding is also aggregated by
	// object and path (Report.EmulationFindings, DriftFindings,
	// ConversionFindings), so memory grows with the distinct paths, not
	// with the XRs. DefaultDetailed when zero; every XR when negative.
	Detailed int

	// Workers bounds the XRs rendered at once (runtime.GOMAXPROCS(0) when
	// zero or negative). The report is the same for any number: XRs are
	// folded into it in list order.
	Workers int
}

// DefaultDetailed is the number of XRs with findings a Report lists in
// full by default.
const DefaultDetailed = 20

// maxExamples bounds the XR names a Tally gives.
const maxExamples = 3

// Verdicts of a Composition checked against a cluster, best first.
const (
	// Equivalent: every XR's conversion check passed and the legacy
	// render reproduced every live XR.
	Equivalent = "equivalent"
	// EmulationDifferences: the conversion checks passed, but the legacy
	// render did not reproduce some live objects: the cluster does
	// something the emulator does not, so the proof is incomplete there.
	EmulationDifferences = "emulation-differences"
	// ConversionDifferences: some XR's conversion check failed.
	ConversionDifferences = "conversion-differences"
	// Unverified: no XR runs the Composition, or no conversion check was
	// conclusive.
	Unverified = "unverified"
	// NotChecked: the Composition could not be checked at all (it cannot
	// be converted, say); Report.Error says why (see Unchecked).
	NotChecked = "not-checked"
)

// A Report is the result of checking one Composition against a cluster.
type Report struct {
	Composition string `json:"composition"`
	Legacy      string `json:"legacy"`
	Converted   string `json:"converted,omitempty"`
	// Verdict is one of Equivalent, EmulationDifferences,
	// ConversionDifferences, Unverified and NotChecked.
	Verdict string `json:"verdict"`
	// Error says why a Composition could not be checked (NotChecked).
	Error string `json:"error,omitempty"`

	// XRs counts the live XRs that run the Composition (in the namespace
	// filter); Pinned those pinned to a CompositionRevision that differs
	// from the legacy Composition.
	XRs    int `json:"xrs"`
	Pinned int `json:"pinnedToOtherRevisions,omitempty"`

	// Counts over all XRs: XRs with an emulation difference, emulation
	// differences, drifted fields.
	EmulationXRs int `json:"emulationXRs"`
	Emulation    int `json:"emulationDifferences"`
	Drift        int `json:"driftFields"`

	// Conversion is the conversion check: verify's report with one sample
	// per live XR.
	Conversion *verify.Report `json:"conversion"`

	// Composites are the XRs, in list order.
	Composites []XR `json:"composites"`

	// Missing are the permissions the reader lacked ("get secrets in
	// namespace team-a"); what they guard was not checked.
	Missing []string `json:"missingPermissions,omitempty"`

	// Unlisted counts the XRs with findings that Composites does not list
	// in full (beyond Options.Detailed): the aggregates below hold theirs.
	Unlisted int `json:"unlistedXRs,omitempty"`

	// EmulationFindings, DriftFindings and ConversionFindings are every
	// XR's emulation differences, drifted fields and conversion
	// differences, aggregated by object and path, sorted.
	EmulationFindings  []Tally `json:"emulationFindings,omitempty"`
	DriftFindings      []Tally `json:"driftFindings,omitempty"`
	ConversionFindings []Tally `json:"conversionFindings,omitempty"`
}

// A Tally is a finding aggregated over the XRs: where, and on how many
// XRs (a few named).
type Tally struct {
	// Object is "XR", "XR connection Secret", "claim", a composed
	// resource's template and kind ("bucket (Bucket)"), or for a conversion
	// difference `resource "bucket"`.
	Object  string `json:"object"`
	Path    string `json:"path,omitempty"`
	Message string `json:"message,omitempty"`
	// Code is the gap code that explains a conversion difference; Class is
	// how it counts (unexplained, breaking, accepted, benign, intended).
	Code  string `json:"code,omitempty"`
	Class string `json:"class,omitempty"`
	// XRs counts the XRs with the finding; Examples names the first few.
	XRs      int      `json:"xrs"`
	Examples []string `json:"examples"`
}

func (t Tally) String() string {
	s := t.Object
	if t.Path != "" {
		s += " " + t.Path
	}
	if t.Message != "" {
		s += ": " + t.Message
	}
	if t.Code != "" {
		s += " (" + t.Code + ")"
	}
	if t.Class != "" {
		s += " [" + t.Class + "]"
	}
	ex := strings.Join(t.Examples, ", ")
	if t.XRs > len(t.Examples) {
		ex += ", …"
	}
	return fmt.Sprintf("%s: %d XRs (%s)", s, t.XRs, ex)
}

// An XR is the result of the three checks for one live XR.
type XR struct {
	Name string `json:"name"`
	// Claim is "namespace/name" of its spec.claimRef, and ClaimState
	// whether the claim could be read.
	Claim      string `json:"claim,omitempty"`
	ClaimState string `json:"claimState,omitempty"`
	// Revision is the CompositionRevision it is pinned to; Pinned says it
	// differs from the legacy Composition, whose revision was rendered
	// instead (and converted on the fly for the conversion check).
	Revision string `json:"revision,omitempty"`
	Pinned   bool   `json:"pinned,omitempty"`

	// Conversion is the verdict of the conversion check.
	Conversion verify.Verdict `json:"conversion"`

	// Emulation lists what the legacy render did not reproduce;
	// EmulationError is the legacy render's error.
	Emulation      []Finding `json:"emulation,omitempty"`
	EmulationError string    `json:"emulationError,omitempty"`

	// Drift lists the fields of live objects no render produces (info).
	Drift []Finding `json:"drift,omitempty"`

	// Notes say what could not be read.
	Notes []string `json:"notes,omitempty"`

	// Unlisted says its findings are not listed (beyond Options.Detailed):
	// Emulation, Drift and Notes are empty, EmulationError too, and the
	// counts below say how many there were.
	Unlisted bool `json:"unlisted,omitempty"`
	// EmulationCount, DriftCount and NoteCount count its emulation
	// differences (with a failed legacy render as one), drifted fields and
	// notes, listed or not.
	EmulationCount int `json:"emulationCount,omitempty"`
	DriftCount     int `json:"driftCount,omitempty"`
	NoteCount      int `json:"noteCount,omitempty"`
}

// A Finding is a field of a live object.
type Finding struct {
	// Object names the object: "XR", or "<resource name> (<Kind> <name>)".
	Object string `json:"object"`
	Path   string `json:"path"`
	// Live and Rendered are the values (absent when there is none, and for
	// connection details, whose values are never shown).
	Live     any `json:"live,omitempty"`
	Rendered any `json:"rendered,omitempty"`
	// Message explains a finding without a path.
	Message string `json:"message,omitempty"`

	// group is Object without the live object's name, the key of its
	// Tally: "bucket (Bucket)"; what, when set, stands for Message there
	// (a Message that shows values would count each value apart).
	group, what string
}

func (f Finding) String() string {
	if f.Message != "" {
		if f.Path == "" {
			return f.Object + ": " + f.Message
		}
		return f.Object + " " + f.Path + ": " + f.Message
	}
	return fmt.Sprintf("%s %s: live %s, rendered %s", f.Object, f.Path, ShowValue(f.Live), ShowValue(f.Rendered))
}

// ShowValue shows a value of a finding as JSON, "(none)" when absent.
func ShowValue(v any) string {
	if v == nil {
		return "(none)"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// Fails reports whether the check fails: the Composition could not be
// checked, or a conversion check failed; with requireVerified also an emulation difference, an inconclusive XR or no
// XR at all.
func (r *Report) Fails(requireVerified bool) bool {
	if r.Verdict == NotChecked {
		return true
	}
	if r.Conversion.Fails(requireVerified) {
		return true
	}
	return requireVerified && r.Verdict != Equivalent
}

// A pair is the legacy Composition an XR runs and its conversion.
type pair struct {
	legacy, converted verify.Document
	obj               map[string]any
	pinned            bool
	// xrd is the XRD of the Composition's type, when known: revisions
	// are converted with it too.
	xrd map[string]any
}

// Verify checks the legacy Composition (and its converted form; converted
// by Options.Verify.Convert when converted.Data is empty) against every XR
// of the cluster that runs it. It returns an error only when the check
// could not run (unreadable input, a failing cluster connection or
// converter, a cancelled context); a forbidden read is a missing
// permission in the Report.
func Verify(ctx context.Context, c Cluster, legacy, converted verify.Document, o Options) (*Report, error) {
	comp, err := composition(legacy)
	if err != nil {
		return nil, err
	}
	if len(converted.Data) == 0 && o.Verify.Convert == nil {
		return nil, errors.New("cannot verify without a converted composition: give one, or a converter")
	}
	// The on-the-fly conversions (of the Composition, of the revisions XRs
	// are pinned to) read the XRD of the Composition's type, as convert
	// --xrd and migrate do: the given one, else the cluster's.
	xrd := o.Verify.XRD
	if xrd == nil {
		if xrd, err = definitionOf(ctx, c, comp); err != nil {
			return nil, err
		}
	}
	if len(converted.Data) == 0 {
		b, err := o.Verify.Convert(verify.ConvertRequest{Composition: legacy.Data, Target: o.Verify.Target, XRD: xrd})
		if err != nil {
			return nil, errors.Wrapf(err, "cannot convert %s", legacy.Path)
		}
		converted = verify.Document{Path: "(converted on the fly)", Data: b}
	}
	envs, err := c.EnvironmentConfigs(ctx)
	if err != nil {
		return nil, err
	}
	extra := make([]map[string]any, 0, len(envs))
	for _, e := range envs {
		extra = append(extra, clean(e.Object))
	}

	agg := newAggregate(&Report{Composition: comp.GetName(), Legacy: legacy.Path, Converted: converted.Path}, o)
	current := &pair{legacy: legacy, converted: converted, obj: comp.Object, xrd: xrd}
	byRevision := map[string]*pair{}

	// The reader hands XRs over in list order, Concurrency of them fetched
	// at once; up to Workers are rendered at once, and folded into the
	// report in list order as they finish.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	type result struct {
		x   *XR
		vr  *verify.Report
		err error
	}
	pending := make(chan chan result, workers-1)
	folded := make(chan error, 1)
	go func() {
		var first error
		for ch := range pending {
			res := <-ch
			switch {
			case first != nil:
			case res.err != nil:
				first = res.err
				cancel()
			default:
				agg.add(res.x, res.vr)
				if o.Progress != nil {
					o.Progress(agg.rep.XRs)
				}
			}
		}
		folded <- first
	}()
	err = c.Composites(ctx, comp, func(live *cluster.Composite) error {
		p, err := pairFor(current, byRevision, live, o)
		if err != nil {
			return err
		}
		ch := make(chan result, 1)
		select {
		case pending <- ch:
		case <-ctx.Done():
			return ctx.Err()
		}
		go func() {
			x, vr, err := check(ctx, p, live, extra, o)
			ch <- result{x, vr, err}
		}()
		return nil
	})
	close(pending)
	if ferr := <-folded; ferr != nil {
		return nil, ferr
	}
	if err != nil {
		return nil, err
	}
	rep := agg.rep
	reason := ""
	if rep.XRs == 0 {
		reason = "no XR in the cluster runs this Composition (or none could be listed)"
	}
	rep.Conversion = agg.conv.Report(reason)
	rep.Conversion.Legacy, rep.Conversion.Converted, rep.Conversion.Composition = legacy.Path, converted.Path, comp.GetName()
	if rep.XRs == 0 {
		rep.Conversion.Hint = "check the --namespace filter and that the kubeconfig's user may list the XR kind"
	}
	for _, p := range c.Missing() {
		rep.Missing = append(rep.Missing, p.String())
	}
	agg.finish()
	return rep, nil
}

// An aggregate folds the XRs into a Report one by one, keeping per XR a
// compact record, in full for the first Options.Detailed XRs with findings,
// and the findings aggregated by object and path.
type aggregate struct {
	rep       *Report
	conv      verify.Combiner
	detailed  int
	listed    int
	emulation tallies
	drift     tallies
	converted tallies
}

func newAggregate(rep *Report, o Options) *aggregate {
	d := o.Detailed
	switch {
	case d == 0:
		d = DefaultDetailed
	case d < 0:
		d = 0
	}
	return &aggregate{rep: rep, conv: verify.Combiner{Detailed: d}, detailed: d}
}

// add folds one XR in; x is kept (in compact form beyond Detailed), vr not.
func (a *aggregate) add(x *XR, vr *verify.Report) {
	r := a.rep
	r.XRs++
	if x.Pinned {
		r.Pinned++
	}
	x.EmulationCount, x.DriftCount, x.NoteCount = len(x.Emulation), len(x.Drift), len(x.Notes)
	if x.EmulationError != "" {
		x.EmulationCount++
	}
	if x.EmulationCount > 0 {
		r.EmulationXRs++
	}
	r.Emulation += len(x.Emulation)
	r.Drift += len(x.Drift)

	a.emulation.addFindings(x.Name, x.Emulation)
	if x.EmulationError != "" {
		a.emulation.add(x.Name, Tally{Object: "XR", Message: "the legacy render failed"})
	}
	a.drift.addFindings(x.Name, x.Drift)
	for _, s := range vr.Samples {
		for i := range s.Differences {
			a.converted.add(x.Name, conversionTally(&s.Differences[i], vr.Strict))
		}
	}
	a.conv.Add(vr)

	if x.EmulationCount+x.DriftCount+x.NoteCount > 0 {
		if a.detailed > 0 && a.listed >= a.detailed {
			x.Unlisted = true
			x.Emulation, x.Drift, x.Notes, x.EmulationError = nil, nil, nil, ""
			r.Unlisted++
		} else {
			a.listed++
		}
	}
	r.Composites = append(r.Composites, *x)
}

// finish sets the aggregates and the verdict.
func (a *aggregate) finish() {
	r := a.rep
	r.EmulationFindings, r.DriftFindings, r.ConversionFindings = a.emulation.sorted(), a.drift.sorted(), a.converted.sorted()
	switch {
	case r.Conversion.Fails(false):
		r.Verdict = ConversionDifferences
	case r.Conversion.Verdict == verify.Unverified:
		r.Verdict = Unverified
	case r.EmulationXRs > 0:
		r.Verdict = EmulationDifferences
	default:
		r.Verdict = Equivalent
	}
}

// tallies aggregates findings by object, path, message and code.
type tallies struct {
	by map[tallyKey]*Tally
	// last is the XR a finding was last counted for: an XR counts once.
	last map[tallyKey]string
}

type tallyKey struct{ object, path, message, code, class string }

func (ts *tallies) add(xr string, t0 Tally) {
	if ts.by == nil {
		ts.by, ts.last = map[tallyKey]*Tally{}, map[tallyKey]string{}
	}
	k := tallyKey{t0.Object, t0.Path, t0.Message, t0.Code, t0.Class}
	t, ok := ts.by[k]
	if !ok {
		t = &t0
		ts.by[k] = t
	}
	if ok && ts.last[k] == xr {
		return
	}
	ts.last[k] = xr
	t.XRs++
	if len(t.Examples) < maxExamples {
		t.Examples = append(t.Examples, xr)
	}
}

func (ts *tallies) addFindings(xr string, fs []Finding) {
	for _, f := range fs {
		obj, msg := f.group, f.what
		if obj == "" {
			obj = f.Object
		}
		if msg == "" {
			msg = f.Message
		}
		ts.add(xr, Tally{Object: obj, Path: f.Path, Message: msg})
	}
}

func (ts *tallies) sorted() []Tally {
	out := make([]Tally, 0, len(ts.by))
	for _, t := range ts.by {
		out = append(out, *t)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Object != b.Object {
			return a.Object < b.Object
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Message != b.Message {
			return a.Message < b.Message
		}
		if a.Code != b.Code {
			return a.Code < b.Code
		}
		return a.Class < b.Class
	})
	if len(out) == 0 {
		return nil
	}
	return out
}

// conversionTally is the Tally key of a conversion difference.
func conversionTally(d *verify.Difference, strict bool) Tally {
	t := Tally{Object: "XR"}
	if d.Resource != "" {
		t.Object = fmt.Sprintf("resource %q", d.Resource)
	}
	switch d.Aspect {
	case verify.AspectResource, verify.AspectXR:
		t.Path = d.Path.String()
	case verify.AspectCondition:
		t.Path = "condition " + d.Path.String()
	case verify.AspectConnection:
		t.Path = "connection detail " + d.Path.String()
	default:
		t.Path = string(d.Aspect)
	}
	switch {
	case d.Gap == nil:
		t.Class = "unexplained"
	case d.Gap.Class == verify.ClassIntended:
		t.Class, t.Code = "intended", d.Gap.Code
	case d.Gap.Class == verify.ClassBreaking && d.Gap.Accepted:
		t.Class, t.Code = "accepted", d.Gap.Code
	case d.Gap.Class == verify.ClassBreaking:
		t.Class, t.Code = "breaking", d.Gap.Code
	default:
		t.Class, t.Code = "benign", d.Gap.Code
	}
	if d.Fails(strict) && t.Class == "benign" {
		t.Class = "benign (fails with --strict)"
	}
	return t
}

// A definitionLister lists the cluster's CompositeResourceDefinitions, as
// cluster.Reader does (a forbidden list is a missing permission, and no
// XRD).
type definitionLister interface {
	Definitions(ctx context.Context) ([]*unstructured.Unstructured, error)
}

// definitionOf returns the cluster's XRD of the Composition's type, or nil
// when the cluster has none (or c cannot list them).
func definitionOf(ctx context.Context, c Cluster, comp *unstructured.Unstructured) (map[string]any, error) {
	dl, ok := c.(definitionLister)
	if !ok {
		return nil, nil
	}
	av, _, _ := unstructured.NestedString(comp.Object, "spec", "compositeTypeRef", "apiVersion")
	kind, _, _ := unstructured.NestedString(comp.Object, "spec", "compositeTypeRef", "kind")
	xrds, err := dl.Definitions(ctx)
	if err != nil {
		return nil, errors.Wrap(err, "cannot read the cluster's CompositeResourceDefinitions")
	}
	for _, x := range xrds {
		group, _, _ := unstructured.NestedString(x.Object, "spec", "group")
		k, _, _ := unstructured.NestedString(x.Object, "spec", "names", "kind")
		if group == xp.Group(av) && k == kind {
			return x.Object, nil
		}
	}
	return nil, nil
}

// composition reads the Composition of a document as an object.
func composition(d verify.Document) (*unstructured.Unstructured, error) {
	for _, doc := range manifest.Split(d.Data) {
		obj, err := doc.Decode()
		if err != nil {
			return nil, errkind.InvalidInput(manifest.NewDocumentError(d.Path, doc, err))
		}
		if obj != nil && obj["kind"] == "Composition" && obj["apiVersion"] == xp.CompositionAPIVersion {
			return &unstructured.Unstructured{Object: obj}, nil
		}
	}
	return nil, errkind.InvalidInputf("%s: no apiextensions.crossplane.io/v1 Composition found", d.Path)
}

// pairFor returns the Compositions the XR runs: the legacy one, or the
// CompositionRevision it is pinned to (pinned) when that differs (converted
// on the fly, once per revision).
func pairFor(current *pair, byRevision map[string]*pair, live *cluster.Composite, o Options) (*pair, error) {
	if live.Revision == nil || !pinned(current.obj, live.XR.Object) {
		return current, nil
	}
	if p, ok := byRevision[live.RevisionName]; ok {
		return p, nil
	}
	spec, _, _ := unstructured.NestedMap(live.Revision.Object, "spec")
	delete(spec, "revision")
	curSpec, _ := current.obj["spec"].(map[string]any)
	if jsonobj.Equal(spec, curSpec) {
		byRevision[live.RevisionName] = current
		return current, nil
	}
	name, _, _ := unstructured.NestedString(current.obj, "metadata", "name")
	obj := map[string]any{
		"apiVersion": xp.CompositionAPIVersion,
		"kind":       "Composition",
		"metadata":   map[string]any{"name": name},
		"spec":       spec,
	}
	b, err := yaml.Marshal(obj)
	if err != nil {
		return nil, errors.Wrapf(err, "cannot encode CompositionRevision %s", live.RevisionName)
	}
	path := "CompositionRevision " + live.RevisionName
	p := &pair{legacy: verify.Document{Path: path, Data: b}, obj: obj, pinned: true, xrd: current.xrd}
	if o.Verify.Convert == nil {
		return nil, errors.Errorf("cannot verify XRs pinned to %s without a converter", path)
	}
	c, err := o.Verify.Convert(verify.ConvertRequest{Composition: b, Target: o.Verify.Target, XRD: current.xrd})
	if err != nil {
		return nil, errors.Wrapf(err, "cannot convert %s", path)
	}
	p.converted = verify.Document{Path: path + " (converted on the fly)", Data: c}
	byRevision[live.RevisionName] = p
	return p, nil
}

// pinned reports whether an XR runs the CompositionRevision its
// spec.compositionRevisionRef names rather than the Composition's newest
// revision (the legacy Composition, as the repository has it): with the
// compositionUpdatePolicy Manual, or with Automatic (the default) and a
// spec.compositionRevisionSelector the Composition's labels do not match,
// since Crossplane then keeps the XR on the newest revision the selector
// matches, which is not the Composition's (a revision carries the labels
// of the Composition it was made from).
func pinned(comp, xr map[string]any) bool {
	policy, _, _ := unstructured.NestedString(xr, "spec", "compositionUpdatePolicy")
	if policy == "Manual" {
		return true
	}
	sel, ok, _ := unstructured.NestedStringMap(xr, "spec", "compositionRevisionSelector", "matchLabels")
	if !ok {
		return false
	}
	labels, _, _ := unstructured.NestedStringMap(comp, "metadata", "labels")
	for k, v := range sel {
		if l, ok := labels[k]; !ok || l != v {
			return true
		}
	}
	return false
}

// clean returns a copy of a live object without the API server's
// bookkeeping nothing renders from.
func clean(obj map[string]any) map[string]any {
	out := jsonobj.DeepCopy(obj)
	if md, ok := out["metadata"].(map[string]any); ok {
		delete(md, "managedFields")
	}
	return out
}

// check runs the three checks for one XR.
func check(ctx context.Context, p *pair, live *cluster.Composite, extra []map[string]any, o Options) (*XR, *verify.Report, error) {
	xr := clean(live.XR.Object)
	x := &XR{Name: live.XR.GetName(), Revision: live.RevisionName, Pinned: p.pinned}
	if ref, ok, _ := unstructured.NestedStringMap(live.XR.Object, "spec", "claimRef"); ok {
		x.Claim = ref["namespace"] + "/" + ref["name"]
		x.ClaimState = string(live.ClaimState)
	}
	if live.RevisionName != "" && live.Revision == nil {
		x.Notes = append(x.Notes, fmt.Sprintf("CompositionRevision %s could not be read: the legacy Composition was rendered instead", live.RevisionName))
	}

	observed := []map[string]any{}
	details := map[string]map[string][]byte{}
	var secrets []map[string]any
	for _, cd := range live.Composed {
		if cd.State != cluster.Found {
			x.Notes = append(x.Notes, fmt.Sprintf("composed resource %s %s: %s", cd.Ref.Kind, cd.Ref.Name, cd.State))
			continue
		}
		observed = append(observed, clean(cd.Object.Object))
		if s := cd.ConnectionSecret; s != nil && cd.ResourceName != "" {
			if s.State != cluster.Found {
				x.Notes = append(x.Notes, fmt.Sprintf("connection Secret %s/%s of %s: %s", s.Namespace, s.Name, cd.ResourceName, s.State))
				continue
			}
			// Digests stand for the values: both sides see the same, and
			// no value is kept. The legacy composer reads the Secret, the
			// pipeline the observed connection details.
			d := map[string][]byte{}
			for k, v := range s.Digests {
				d[k] = []byte(v)
			}
			details[cd.ResourceName] = d
			secrets = append(secrets, digestSecret(s))
		}
	}
	if s := live.ConnectionSecret; s != nil && s.State == cluster.Found {
		secrets = append(secrets, digestSecret(s))
	}
	if len(secrets) > 0 {
		extra = append(append([]map[string]any{}, extra...), secrets...)
	}

	vo := o.Verify
	vo.Observed, vo.Extra, vo.ObservedConnectionDetails, vo.Convert = nil, nil, nil, nil
	vo.FromCluster = true
	sample := verify.Sample{Name: x.Name, XR: xr, Observed: observed, Extra: extra, ObservedConnectionDetails: details}
	if len(extra) == 0 {
		sample.Extra = []map[string]any{}
	}
	vr, err := verify.Verify(ctx, p.legacy, p.converted, []verify.Sample{sample}, vo)
	if err != nil {
		return nil, nil, errors.Wrapf(err, "XR %s", x.Name)
	}
	if len(vr.Samples) == 1 {
		x.Conversion = vr.Samples[0].Verdict
	}

	res, err := engine.Render(ctx, engine.Request{
		XR: xr, Composition: p.obj, Observed: observed, Extra: extra,
		ObservedConnectionDetails: details, Stored: true,
	}, engine.Options{Target: o.Verify.Target})
	if ctx.Err() != nil {
		return nil, nil, ctx.Err()
	}
	if err != nil {
		x.EmulationError = err.Error()
	}
	if res != nil && res.Outcome != nil {
		emulate(x, res.Outcome, live)
		claimed(x, res.Outcome.EffectiveXR, live)
	}
	return x, vr, nil
}

// claimOnly are the claim's spec fields Crossplane v1.20's claim syncer
// does not copy to the XR (compositionRevisionRef goes from claim to XR
// only with the Manual policy; it is not compared either way).
var claimOnly = map[string]bool{
	"compositionRevisionRef": true, "compositeDeletePolicy": true, "resourceRef": true,
	"publishConnectionDetailsTo": true, "writeConnectionSecretToRef": true,
}

// claimed compares the XR's claim with the legacy render (check 1) as
// Crossplane v1.20's claim syncer keeps them in step: the claim's status is
// the XR's without its machinery (conditions, connection details, claim
// condition types), so it carries every status field the render wrote;
// the claim's spec, but for its own fields (claimOnly), is copied to the
// XR's. Status fields of the claim no render writes are drift (info). A
// claim that could not be read is a note.
func claimed(x *XR, eff map[string]any, live *cluster.Composite) {
	if x.Claim == "" {
		return
	}
	obj := "claim " + x.Claim
	if live.ClaimState != cluster.Found || live.Claim == nil {
		x.Notes = append(x.Notes, fmt.Sprintf("%s: %s, not compared", obj, orDefault(string(live.ClaimState), "not read")))
		return
	}
	claim := live.Claim.Object
	if eff != nil {
		rendered, got := claimStatus(eff), claimStatus(claim)
		for _, path := range jsonobj.SortedKeys(rendered) {
			if lv, ok := got[path]; !ok || !jsonobj.Equal(lv, rendered[path]) {
				x.Emulation = append(x.Emulation, Finding{Object: obj, Path: path, Live: lv, Rendered: rendered[path], group: "claim"})
			}
		}
		for _, path := range jsonobj.SortedKeys(got) {
			if _, ok := rendered[path]; !ok {
				x.Drift = append(x.Drift, Finding{Object: obj, Path: path, Live: got[path], group: "claim"})
			}
		}
	}
	spec, _ := claim["spec"].(map[string]any)
	xrSpec, _ := live.XR.Object["spec"].(map[string]any)
	for _, k := range jsonobj.SortedKeys(spec) {
		if claimOnly[k] {
			continue
		}
		if xv, ok := xrSpec[k]; !ok || !jsonobj.Equal(xv, spec[k]) {
			x.Emulation = append(x.Emulation, Finding{
				Object: obj, Path: "spec." + k, group: "claim", what: "the XR's spec does not carry the claim's value (the claim syncer copies it)",
				Message: fmt.Sprintf("the claim has %s, the XR %s: the claim syncer copies the claim's spec to the XR", ShowValue(spec[k]), ShowValue(xv)),
			})
		}
	}
}

// claimStatus flattens the status fields the claim syncer copies from the
// XR to its claim.
func claimStatus(obj map[string]any) map[string]any {
	out := map[string]any{}
	st, _ := obj["status"].(map[string]any)
	for k, v := range st {
		switch k {
		case "conditions", "connectionDetails", "claimConditionTypes":
			continue
		}
		flatten("status."+k, v, out)
	}
	return out
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// emulate compares the legacy render with the live objects (check 1) and
// lists the live fields no render produced (check 3).
func emulate(x *XR, out *render.Outcome, live *cluster.Composite) {
	byName := map[string]*cluster.Composed{}
	for i := range live.Composed {
		if cd := &live.Composed[i]; cd.ResourceName != "" && cd.Object != nil {
			byName[cd.ResourceName] = cd
		}
	}
	for i, c := range out.Composed {
		if !c.Rendered || c.Desired == nil {
			continue
		}
		var cd *cluster.Composed
		if c.Name != "" {
			cd = byName[c.Name]
		} else if i < len(live.Composed) && live.Composed[i].Object != nil {
			// Anonymous templates: spec.resourceRefs keeps template order.
			cd = &live.Composed[i]
		}
		name := c.Name
		if name == "" {
			name = fmt.Sprintf("resource %d", i)
		}
		if cd == nil {
			x.Emulation = append(x.Emulation, Finding{Object: name, Message: "the legacy composer renders it, but the XR's spec.resourceRefs has no such live resource"})
			continue
		}
		obj := fmt.Sprintf("%s (%s %s)", name, cd.Object.GetKind(), cd.Object.GetName())
		group := fmt.Sprintf("%s (%s)", name, cd.Object.GetKind())
		// Secret values compare, and show, as digests.
		rendered := owned(redact.Object(c.Desired))
		liveOwned := owned(redact.Object(cd.Object.Object))
		for _, path := range jsonobj.SortedKeys(rendered) {
			lv, ok := liveOwned[path]
			if differs(lv, ok, rendered[path]) {
				f := Finding{Object: obj, Path: path, Rendered: rendered[path], group: group}
				if ok {
					f.Live = lv
				}
				x.Emulation = append(x.Emulation, f)
			}
		}
		for _, path := range jsonobj.SortedKeys(liveOwned) {
			if _, ok := rendered[path]; ok || bookkeeping(path) {
				continue
			}
			x.Drift = append(x.Drift, Finding{Object: obj, Path: path, Live: liveOwned[path], group: group})
		}
	}

	// The XR: fields the render wrote (status by ToComposite patches, spec
	// by patches to the XR) and its Ready condition.
	if eff := out.EffectiveXR; eff != nil {
		rendered := xrFields(eff)
		liveXR := xrFields(live.XR.Object)
		for _, path := range jsonobj.SortedKeys(rendered) {
			if lv, ok := liveXR[path]; differs(lv, ok, rendered[path]) {
				x.Emulation = append(x.Emulation, Finding{Object: "XR", Path: path, Live: lv, Rendered: rendered[path]})
			}
		}
		if lr, rr := readyStatus(live.XR.Object), readyStatus(eff); lr != rr && out != nil {
			x.Emulation = append(x.Emulation, Finding{Object: "XR", Path: "status.conditions[Ready].status", Live: orNil(lr), Rendered: orNil(rr)})
		}
	}
	if s := live.ConnectionSecret; s != nil && s.State == cluster.Found {
		keys := map[string]bool{}
		for k := range s.Digests {
			keys[k] = true
		}
		for k := range out.ConnectionDetails {
			keys[k] = true
		}
		for _, k := range jsonobj.SortedKeys(keys) {
			lv, lok := s.Digests[k]
			rv, rok := out.ConnectionDetails[k]
			switch {
			case !lok:
				x.Emulation = append(x.Emulation, Finding{Object: "XR connection Secret", Path: k, Message: "rendered, but not in the live Secret"})
			case !rok:
				x.Drift = append(x.Drift, Finding{Object: "XR connection Secret", Path: k, Message: "in the live Secret, not rendered"})
			case string(rv) != lv:
				x.Emulation = append(x.Emulation, Finding{Object: "XR connection Secret", Path: k, Message: "the value differs (values are compared as digests, never shown)"})
			}
		}
	}
}

// differs says whether a live field (ok: present) differs from its
// rendered value. A rendered null matches an absent field: the API server
// keeps no null field of a custom resource.
func differs(live any, ok bool, rendered any) bool {
	if !ok {
		return rendered != nil
	}
	return !jsonobj.Equal(live, rendered)
}

func orNil(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// owned flattens the fields of a composed resource Crossplane writes:
// spec, metadata.labels and metadata.annotations, by dotted path. Lists are
// leaves.
func owned(obj map[string]any) map[string]any {
	out := map[string]any{}
	if spec, ok := obj["spec"].(map[string]any); ok {
		flatten("spec", spec, out)
	}
	md, _ := obj["metadata"].(map[string]any)
	for _, k := range []string{"labels", "annotations"} {
		if m, ok := md[k].(map[string]any); ok {
			for key, v := range m {
				out["metadata."+k+"["+key+"]"] = v
			}
		}
	}
	return out
}

// xrFields flattens the XR fields a legacy render writes: status (without
// conditions and connection details) and spec (without Crossplane's
// references).
func xrFields(obj map[string]any) map[string]any {
	out := map[string]any{}
	if st, ok := obj["status"].(map[string]any); ok {
		for k, v := range st {
			if k == "conditions" || k == "connectionDetails" {
				continue
			}
			flatten("status."+k, v, out)
		}
	}
	if spec, ok := obj["spec"].(map[string]any); ok {
		for k, v := range spec {
			switch k {
			case "resourceRefs", "compositionRef", "compositionRevisionRef", "compositionSelector", "compositionUpdatePolicy",
				"compositionRevisionSelector", "claimRef", "writeConnectionSecretToRef", "publishConnectionDetailsTo", "environmentConfigRefs":
				continue
			}
			flatten("spec."+k, v, out)
		}
	}
	return out
}

func flatten(prefix string, v any, out map[string]any) {
	m, ok := v.(map[string]any)
	if !ok || len(m) == 0 {
		out[prefix] = v
		return
	}
	for k, e := range m {
		flatten(prefix+"."+k, e, out)
	}
}

// bookkeeping reports whether a live field is the API server's or
// Crossplane's own, never drift.
func bookkeeping(path string) bool {
	switch path {
	case "metadata.annotations[" + xp.AnnotationCompositionResourceName + "]",
		"metadata.annotations[kubectl.kubernetes.io/last-applied-configuration]",
		"metadata.labels[crossplane.io/composite]", "metadata.labels[crossplane.io/claim-name]",
		"metadata.labels[crossplane.io/claim-namespace]",
		"metadata.annotations[crossplane.io/external-name]",
		// crossplane-runtime's managed reconciler records each external
		// Create in these.
		"metadata.annotations[crossplane.io/external-create-pending]",
		"metadata.annotations[crossplane.io/external-create-succeeded]",
		"metadata.annotations[crossplane.io/external-create-failed]":
		return true
	}
	return false
}

func readyStatus(obj map[string]any) string {
	conds, _, _ := unstructured.NestedSlice(obj, "status", "conditions")
	for _, c := range conds {
		if m, ok := c.(map[string]any); ok && m["type"] == render.ConditionTypeReady {
			s, _ := m["status"].(string)
			return s
		}
	}
	return ""
}

// ReadsConnectionDetails reports whether the legacy Composition reads
// connection details, so that the connection Secrets are worth reading.
func ReadsConnectionDetails(legacy verify.Document) bool {
	comp, err := composition(legacy)
	if err != nil {
		return false
	}
	res, _, _ := unstructured.NestedSlice(comp.Object, "spec", "resources")
	for _, r := range res {
		if m, ok := r.(map[string]any); ok {
			if cd, ok := m["connectionDetails"].([]any); ok && len(cd) > 0 {
				return true
			}
		}
	}
	return false
}

// digestSecret is a Secret whose values are the digests of s's.
func digestSecret(s *cluster.Secret) map[string]any {
	data := map[string]any{}
	for k, v := range s.Digests {
		data[k] = base64.StdEncoding.EncodeToString([]byte(v))
	}
	return map[string]any{
		"apiVersion": "v1", "kind": "Secret",
		"metadata": map[string]any{"namespace": s.Namespace, "name": s.Name},
		"data":     data,
	}
}
