package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"time"

	fnv1 "github.com/crossplane/function-sdk-go/proto/v1"
	"github.com/pkg/errors"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/protostruct"
	"github.com/xpmigrate/xpmigrate/internal/xp"
	"github.com/xpmigrate/xpmigrate/render"
)

// Event reasons and condition reasons the composer and reconciler use.
const (
	ReasonComposeResources = "ComposeResources"
	ReasonFatalError       = "FatalError"

	// ReasonNamespaceOverridden is Crossplane v2's warning for a composed
	// resource a function put in another namespace than its namespaced XR's.
	ReasonNamespaceOverridden = "NamespaceOverridden"
)

// A Report is everything one Compose computes: the Outcome, and what
// render.Outcome has no field for.
type Report struct {
	render.Outcome

	// RawDesiredXR is the desired XR exactly as the last step returned it
	// (empty when no step returned one).
	RawDesiredXR map[string]any

	// TTL is the smallest positive response TTL over the steps, 0 if none.
	TTL time.Duration

	// TargetedEvents are Outcome.Events with their detail and target kept
	// apart.
	TargetedEvents []TargetedEvent

	// Conditions are the custom conditions the steps returned, in order,
	// system types included (they are ignored when set on the XR).
	Conditions []Condition
}

// Compose runs the Composition's function pipeline for the XR once, as
// Crossplane v1.20.11 would (see the package documentation and
// ComposeReport).
func Compose(ctx context.Context, xr, comp map[string]any, observed []map[string]any, fns Functions, o Options) (*render.Outcome, error) {
	r, err := ComposeReport(ctx, xr, comp, observed, fns, o)
	if r == nil {
		return nil, err
	}
	return &r.Outcome, err
}

// ComposeReport runs the Composition's function pipeline for the XR once.
//
// xr is the observed XR. comp is the Composition object; Compose reads its
// spec.compositeTypeRef, spec.mode and spec.pipeline[] (step,
// functionRef.name, input, credentials). observed are the observed composed
// resources, matched to desired ones by their
// crossplane.io/composition-resource-name annotation. fns runs each step's
// function.
//
// An error from the checks before the pipeline runs (not a Composition, type
// mismatch, selector labels, mode) returns a nil Report. An error while
// composing (a FATAL result, an unknown function, a transport error,
// requirements that do not settle) returns a Report too: its events, results
// and conditions gathered so far, and EffectiveXR with Synced=False.
func ComposeReport(ctx context.Context, xr, comp map[string]any, observed []map[string]any, fns Functions, o Options) (*Report, error) {
	return NewComposer(comp).ComposeReport(ctx, xr, observed, fns, o)
}

// A Composer composes with one Composition again and again, as successive
// reconciles do. It reads the Composition, step inputs included, once; the
// Composition must not change while the Composer is in use. A Composer is
// safe for concurrent use.
type Composer struct {
	c   *composition
	err error
}

// NewComposer returns a Composer for the Composition object comp. A
// Composition it cannot read fails every call, with the error Compose would
// return.
func NewComposer(comp map[string]any) *Composer {
	c, err := decodeComposition(comp)
	return &Composer{c: c, err: err}
}

// Compose is the package's Compose with the Composer's Composition.
func (p *Composer) Compose(ctx context.Context, xr map[string]any, observed []map[string]any, fns Functions, o Options) (*render.Outcome, error) {
	r, err := p.ComposeReport(ctx, xr, observed, fns, o)
	if r == nil {
		return nil, err
	}
	return &r.Outcome, err
}

// ComposeReport is the package's ComposeReport with the Composer's
// Composition.
func (p *Composer) ComposeReport(ctx context.Context, xr map[string]any, observed []map[string]any, fns Functions, o Options) (*Report, error) {
	if p.err != nil {
		return nil, p.err
	}
	if err := p.c.check(xr); err != nil {
		return nil, err
	}
	e, err := newEngine(xr, observed, o)
	if err != nil {
		return nil, err
	}
	return e.run(ctx, p.c, fns)
}

// An engine holds the state of one Compose.
type engine struct {
	o Options

	// xr is the observed XR as the functions see it (rule N1).
	xr   map[string]any
	info xrInfo

	// modern is true for a Crossplane v2 modern XR (see modern).
	modern bool

	// observed composed resources by composition resource name.
	observed map[string]map[string]any
	state    *fnv1.State

	fetch fetcher
	rep   Report
}

func newEngine(xr map[string]any, observed []map[string]any, o Options) (*engine, error) {
	var b protostruct.Builder
	xs, err := b.NewStruct(xr)
	if err != nil {
		return nil, errors.Wrap(err, "cannot build observed composite resource for RunFunctionRequest")
	}
	// The engine keeps the XR as given, not as it comes back from a
	// protobuf Struct: the cluster never rewrites the XR's spec, so integers
	// past 2^53 must not lose precision in EffectiveXR.
	e := &engine{
		o:        o,
		xr:       jsonobj.DeepCopy(xr),
		observed: map[string]map[string]any{},
		state: &fnv1.State{
			Composite: &fnv1.Resource{Resource: xs, ConnectionDetails: o.ObservedXRConnectionDetails},
			Resources: map[string]*fnv1.Resource{},
		},
	}
	e.info = newXRInfo(e.xr)
	e.modern = modern(o, e.xr)

	for i, cd := range observed {
		// The engine reads only strings, booleans and the shape of objects
		// and lists from m. When cd converts directly, those are the same
		// in cd as in what the Struct holds.
		s, direct := b.FromTree(cd)
		m := cd
		if !direct {
			var err error
			if s, err = b.NewStruct(cd); err != nil {
				return nil, errors.Wrapf(err, "cannot build observed composed resource %d for RunFunctionRequest", i)
			}
			m = s.AsMap()
		}
		name := nestedStringMap(m, "metadata", "annotations")[xp.AnnotationCompositionResourceName]
		if o.Profile == Reconciler {
			// The reconciler reads composed resources through the XR's
			// references: unnamed ones cannot be read, and those another
			// XR controls count as absent.
			if jsonobj.String(m, "metadata", "name") == "" {
				continue
			}
			if c := controllerOf(m); c != nil && c.UID != e.info.uid {
				continue
			}
			if name == "" {
				return nil, errors.Wrap(&UnnamedResourceError{}, "cannot get existing composed resources")
			}
		}
		// crank keys an unannotated resource by "", and a later resource
		// with the same name replaces an earlier one.
		e.observed[name] = m
		e.state.Resources[name] = &fnv1.Resource{Resource: s, ConnectionDetails: o.observedConnectionDetails(name, m)}
	}

	pool := newCandidates(o.ExtraResources)
	if o.Profile == Reconciler {
		e.fetch = &clusterFetcher{pool: pool, dialect: o.Dialect}
	} else {
		e.fetch = &filteringFetcher{pool: pool, dialect: o.Dialect}
	}
	return e, nil
}

// runStepError is how each profile words a failed call.
func (e *engine) runStepError(err error, stepName string) error {
	if e.o.Profile == Reconciler {
		return errors.Wrapf(err, "cannot run Composition pipeline step %q", stepName)
	}
	return errors.Wrapf(err, "cannot run pipeline step %q", stepName)
}

func (e *engine) run(ctx context.Context, c *composition, fns Functions) (*Report, error) {
	fctx := &structpb.Struct{Fields: map[string]*structpb.Value{}}
	keys := make([]string, 0, len(e.o.Context))
	for k := range e.o.Context {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v, err := toValue(e.o.Context[k])
		if err != nil {
			return nil, errors.Wrapf(err, "cannot store JSON value for context key %q", k)
		}
		fctx.Fields[k] = v
	}

	d := &fnv1.State{}
	for _, s := range c.Spec.Pipeline {
		if err := ctx.Err(); err != nil {
			return e.fail(e.runStepError(err, s.Step))
		}
		fn, ok := fns[s.FunctionRef.Name]
		if !ok {
			return e.fail(e.runStepError(errors.Errorf("unknown Function %q - does it exist in your Functions file?", s.FunctionRef.Name), s.Step))
		}
		req, err := e.request(s, d, fctx, tagged(fn))
		if err != nil {
			return e.fail(err)
		}
		rsp, err := runWithRequirements(ctx, fn, req, e.fetch, e.o.Dialect)
		if err != nil {
			return e.fail(e.runStepError(err, s.Step))
		}

		if ttl := rsp.GetMeta().GetTtl(); ttl != nil {
			if t := ttl.AsDuration(); t > 0 && (e.rep.TTL == 0 || t < e.rep.TTL) {
				e.rep.TTL = t
			}
		}

		// The next step gets exactly what this one returned, nil included.
		d = rsp.GetDesired()
		fctx = rsp.GetContext()

		for _, c := range rsp.GetConditions() {
			e.rep.Conditions = append(e.rep.Conditions, conditionFrom(c))
		}
		if err := e.results(s.Step, rsp.GetResults()); err != nil {
			return e.fail(err)
		}
	}
	return e.finish(d, fctx)
}

// request builds the request for one step (docs/semantics/pipeline.md#the-pipeline-loop steps 1-4).
// tagged reports whether requests to r carry a meta.tag. Functions may use
// the tag to cache responses; the built-ins only echo it, and hashing the
// whole request for every call costs more than the rest of the request, so
// they get none. Remote functions always get one.
func tagged(r Runner) bool {
	_, builtin := r.(interface{ Builtin() bool })
	return !builtin
}

func (e *engine) request(s step, d *fnv1.State, fctx *structpb.Struct, tag bool) (*fnv1.RunFunctionRequest, error) {
	req := &fnv1.RunFunctionRequest{Observed: e.state, Desired: d, Context: fctx}
	if s.inErr != nil {
		return nil, errors.Wrapf(s.inErr, "cannot unmarshal input for Composition pipeline step %q", s.Step)
	}
	req.Input = s.in
	for _, cs := range s.Credentials {
		if cs.Source != CredentialsSourceSecret || cs.SecretRef == nil {
			continue
		}
		sec, ok := e.o.Credentials.Get(cs.SecretRef.Namespace, cs.SecretRef.Name)
		if !ok {
			return nil, &SecretNotFoundError{Name: cs.SecretRef.Name}
		}
		if req.Credentials == nil {
			req.Credentials = map[string]*fnv1.Credentials{}
		}
		req.Credentials[cs.Name] = &fnv1.Credentials{Source: &fnv1.Credentials_CredentialData{CredentialData: &fnv1.CredentialData{Data: sec.Data}}}
	}
	if e.o.Profile == Reconciler && tag {
		// Identical requests carry identical tags.
		b, err := proto.MarshalOptions{Deterministic: true}.Marshal(req)
		if err != nil {
			return nil, errors.Wrapf(err, "cannot tag request for Composition pipeline step %q", s.Step)
		}
		sum := sha256.Sum256(b)
		req.Meta = &fnv1.RequestMeta{Tag: hex.EncodeToString(sum[:])}
	}
	return req, nil
}

// results turns a step's results into events and render results, in order,
// and returns the error of the first FATAL one (docs/semantics/pipeline.md#the-pipeline-loop step 9).
func (e *engine) results(stepName string, rs []*fnv1.Result) error {
	detail := fmt.Sprintf("Pipeline step %q", stepName)
	for _, r := range rs {
		reason := r.GetReason()
		if reason == "" {
			reason = ReasonComposeResources
		}
		ev := TargetedEvent{Reason: reason, Message: r.GetMessage(), Detail: detail, Target: targetOf(r.Target)}
		switch r.GetSeverity() {
		case fnv1.Severity_SEVERITY_FATAL:
			return &FatalResultError{Step: stepName, Message: r.GetMessage()}
		case fnv1.Severity_SEVERITY_WARNING:
			ev.Type = render.EventWarning
		case fnv1.Severity_SEVERITY_NORMAL:
			ev.Type = render.EventNormal
		case fnv1.Severity_SEVERITY_UNSPECIFIED:
			fallthrough
		default:
			ev = TargetedEvent{
				Type:    render.EventWarning,
				Reason:  reason,
				Message: fmt.Sprintf("Pipeline step %q returned a result of unknown severity (assuming warning): %s", stepName, r.GetMessage()),
				Target:  TargetComposite,
			}
		}
		e.rep.TargetedEvents = append(e.rep.TargetedEvents, ev)
		e.rep.Results = append(e.rep.Results, render.Result{Step: stepName, Severity: r.GetSeverity().String(), Message: r.GetMessage()})
	}
	return nil
}

// finish turns the final desired state into the Outcome (docs/semantics/pipeline.md#from-desired-state-to-cluster-writes
// to docs/semantics/pipeline.md#the-effective-xr and docs/semantics/pipeline.md#crossplane-render).
func (e *engine) finish(d *fnv1.State, fctx *structpb.Struct) (*Report, error) {
	e.rep.RawDesiredXR = fromStruct(d.GetComposite().GetResource())
	e.rep.ConnectionDetails = d.GetComposite().GetConnectionDetails()
	if e.modern {
		// A modern XR has no connection Secret: Crossplane v2 ignores
		// the desired XR's connection details.
		e.rep.ConnectionDetails = nil
	}
	if fctx != nil {
		e.rep.Context = fctx.AsMap()
	}

	desired := d.GetResources()
	names := make([]string, 0, len(desired))
	for name := range desired {
		names = append(names, name)
	}
	sort.Strings(names)

	var unready []string
	refs := make([]objectRef, 0, len(names))
	for _, name := range names {
		dr := desired[name]
		cd := fromStruct(dr.GetResource())

		// An existing composed resource keeps its name and namespace.
		if or, ok := e.observed[name]; ok {
			setNestedString(cd, jsonobj.String(or, "metadata", "namespace"), "metadata", "namespace")
			setNestedString(cd, jsonobj.String(or, "metadata", "name"), "metadata", "name")
		}
		if e.modern {
			// Crossplane v2 checks the scope only of a resource that has no
			// namespace yet (an existing one has its observed namespace).
			if e.info.namespace != "" && jsonobj.String(cd, "metadata", "namespace") == "" && e.o.clusterScoped(jsonobj.String(cd, "apiVersion"), jsonobj.String(cd, "kind")) {
				return e.fail(&ClusterScopedError{Name: name, APIVersion: jsonobj.String(cd, "apiVersion"), Kind: jsonobj.String(cd, "kind"), ResourceName: jsonobj.String(cd, "metadata", "name"), Namespace: e.info.namespace})
			}
			asked, err := renderModernMetadata(cd, e.observed[name], e.info, name)
			if err != nil {
				return e.fail(errors.Wrapf(err, "cannot render composed resource %q metadata", name))
			}
			if asked != "" {
				e.rep.TargetedEvents = append(e.rep.TargetedEvents, TargetedEvent{
					Type:    render.EventWarning,
					Reason:  ReasonNamespaceOverridden,
					Message: fmt.Sprintf("cannot create composed resource %q in namespace %q, using XR namespace %q instead", name, asked, e.info.namespace),
					Target:  TargetComposite,
				})
			}
		} else if err := renderMetadata(cd, e.info, name, e.o.Profile); err != nil {
			return e.fail(errors.Wrapf(err, "cannot render composed resource %q metadata", name))
		}

		// The name the resource has in the cluster. crank generates none.
		clusterName := jsonobj.String(cd, "metadata", "name")
		if clusterName == "" {
			prefix := e.info.namePrefix() + "-"
			if gn := jsonobj.String(cd, "metadata", "generateName"); e.modern && gn != "" {
				prefix = gn
			}
			clusterName = generatedName(prefix, e.info.uid, name)
			if e.o.Profile == Reconciler {
				setNested(cd, clusterName, "metadata", "name")
			}
		}

		ready := dr.GetReady() == fnv1.Ready_READY_TRUE
		if !ready {
			unready = append(unready, name)
		}
		e.rep.Composed = append(e.rep.Composed, render.ComposedResource{
			Name:     name,
			Index:    -1,
			Desired:  cd,
			Applied:  cd, // The same object: outcomes are read, never changed.
			Rendered: true,
			Synced:   true,
			Ready:    ready,
		})
		refs = append(refs, objectRef{
			apiVersion: jsonobj.String(cd, "apiVersion"),
			kind:       jsonobj.String(cd, "kind"),
			namespace:  jsonobj.String(cd, "metadata", "namespace"),
			name:       clusterName,
		})
	}

	for _, name := range jsonobj.SortedKeys(e.observed) {
		if _, ok := desired[name]; ok {
			continue
		}
		if e.o.Profile == Reconciler {
			if err := e.checkDeletable(name); err != nil {
				return e.fail(err)
			}
		}
		e.rep.Deleted = append(e.rep.Deleted, name)
	}

	e.rep.EffectiveXR = e.effectiveXR(d, unready, refs)
	if e.o.Profile == Reconciler {
		for _, cd := range e.rep.Composed {
			if !cd.Ready {
				e.rep.TargetedEvents = append(e.rep.TargetedEvents, TargetedEvent{
					Type:    render.EventNormal,
					Reason:  ReasonComposeResources,
					Message: fmt.Sprintf("Composed resource %q is not yet ready", cd.Name),
				})
			}
		}
		e.rep.XR = jsonobj.DeepCopy(e.rep.EffectiveXR)
	} else {
		e.rep.XR = e.crankXR(unready)
	}
	e.rep.Events = flatten(e.rep.TargetedEvents)
	return &e.rep, nil
}

// checkDeletable refuses to garbage collect a resource another XR controls.
func (e *engine) checkDeletable(name string) error {
	if c := controllerOf(e.observed[name]); c != nil && c.UID != e.info.uid {
		return errors.Wrap(errors.Errorf("refusing to delete composed resource %q that is controlled by %s %q", name, c.Kind, c.Name), "cannot garbage collect composed resources that are no longer desired")
	}
	return nil
}

// crankXR is the XR `crossplane render` v1.20 prints: the desired XR with
// the input's apiVersion, kind and name, a Ready condition derived from the
// composed resources only, then the functions' custom conditions.
func (e *engine) crankXR(unready []string) map[string]any {
	at := fixedTime()
	xr := jsonobj.DeepCopy(e.rep.RawDesiredXR)
	xr["apiVersion"] = e.info.apiVersion
	xr["kind"] = e.info.kind
	setNestedString(xr, e.info.name, "metadata", "name")
	setConditions(xr, readyCondition(unready, at))
	for _, c := range e.rep.Conditions {
		if isSystemCondition(c.Type) {
			continue
		}
		setConditions(xr, newCondition(c.Type, c.Status, c.Reason, c.Message, at))
	}
	return xr
}

// effectiveXR is the XR as the cluster keeps it after a successful
// reconcile: the observed XR whose status has the desired status applied
// over it, the new resource references, the custom conditions, Synced and
// Ready (docs/semantics/pipeline.md#from-desired-state-to-cluster-writes steps 7, 10 and 11, docs/semantics/pipeline.md#xr-conditions, docs/semantics/pipeline.md#the-effective-xr).
func (e *engine) effectiveXR(d *fnv1.State, unready []string, refs []objectRef) map[string]any {
	at := e.o.now()
	xr := jsonobj.DeepCopy(e.xr)
	if st, ok := e.rep.RawDesiredXR["status"].(map[string]any); ok {
		cur, ok := xr["status"].(map[string]any)
		if !ok {
			cur = map[string]any{}
			xr["status"] = cur
		}
		mergeStatus(cur, st)
	}

	if e.o.Native.XRSpecPersisted {
		persistSpec(xr, e.rep.RawDesiredXR)
	}

	refsPath := []string{"spec", "resourceRefs"}
	if e.modern {
		refsPath = []string{"spec", "crossplane", "resourceRefs"}
	}
	setNested(xr, resourceRefs(refs), refsPath...)

	e.setCustomConditions(xr, at)

	ready := readyCondition(unready, at)
	switch d.GetComposite().GetReady() {
	case fnv1.Ready_READY_TRUE:
		ready = newCondition(render.ConditionTypeReady, "True", render.ReasonAvailable, "", at)
	case fnv1.Ready_READY_FALSE:
		ready = newCondition(render.ConditionTypeReady, "False", render.ReasonCreating, "", at)
	case fnv1.Ready_READY_UNSPECIFIED:
	}
	synced := newCondition(render.ConditionTypeSynced, "True", render.ReasonReconcileSuccess, "", at)
	if skipped, _ := e.rep.Context[ContextKeySkipped].([]any); e.o.Native.SkippedUnsynced && len(skipped) > 0 {
		synced = newCondition(render.ConditionTypeSynced, "False", render.ReasonReconcileError, "", at)
		ready = newCondition(render.ConditionTypeReady, "False", render.ReasonCreating, "", at)
	}
	e.markConditions(xr, synced, ready)
	return xr
}

// setCustomConditions sets the functions' custom conditions on xr and
// returns the types it set.
func (e *engine) setCustomConditions(xr map[string]any, at time.Time) map[string]bool {
	seen := map[string]bool{}
	for _, c := range e.rep.Conditions {
		if isSystemCondition(c.Type) {
			continue
		}
		seen[c.Type] = true
		setConditions(xr, newCondition(c.Type, c.Status, c.Reason, c.Message, at))
		if c.Target == TargetCompositeAndClaim {
			addClaimConditionType(xr, c.Type)
		}
	}
	return seen
}

// markConditions sets conditions as the reconciler's condition manager
// does, stamping the XR's generation on them.
func (e *engine) markConditions(xr map[string]any, cs ...xpCondition) {
	gen, _ := jsonobj.Lookup(e.xr, "metadata", "generation")
	g, _ := gen.(float64)
	for i := range cs {
		cs[i].ObservedGeneration = int64(g)
	}
	setConditions(xr, cs...)
}

// fail ends a Compose that failed while composing. The report keeps what
// was gathered; EffectiveXR is the XR as the reconciler leaves it: Synced
// False with the error, the custom conditions seen, and every other custom
// condition Unknown (docs/semantics/pipeline.md#xr-conditions).
func (e *engine) fail(err error) (*Report, error) {
	at := e.o.now()
	composeErr := errors.Wrap(err, "cannot compose resources")

	xr := jsonobj.DeepCopy(e.xr)
	e.markConditions(xr, newCondition(render.ConditionTypeSynced, "False", render.ReasonReconcileError, composeErr.Error(), at))
	seen := e.setCustomConditions(xr, at)
	var unknown []xpCondition
	for _, c := range getConditions(xr) {
		if isSystemCondition(c.Type) || seen[c.Type] {
			continue
		}
		c.Status = "Unknown"
		c.Reason = ReasonFatalError
		c.Message = "A fatal error occurred before the status of this condition could be determined."
		unknown = append(unknown, c)
	}
	e.markConditions(xr, unknown...)
	e.rep.EffectiveXR = xr

	if e.o.Profile == Reconciler {
		e.rep.XR = jsonobj.DeepCopy(xr)
		e.rep.TargetedEvents = append([]TargetedEvent{{Type: render.EventWarning, Reason: ReasonComposeResources, Message: composeErr.Error(), Target: TargetComposite}}, e.rep.TargetedEvents...)
	}
	e.rep.Composed = nil
	e.rep.Deleted = nil
	e.rep.Events = flatten(e.rep.TargetedEvents)
	return &e.rep, err
}

func flatten(tes []TargetedEvent) []render.Event {
	if len(tes) == 0 {
		return nil
	}
	out := make([]render.Event, len(tes))
	for i := range tes {
		out[i] = tes[i].AsEvent()
	}
	return out
}

// addClaimConditionType records a condition type the claim should mirror
// in the XR's status.claimConditionTypes.
func addClaimConditionType(xr map[string]any, t string) {
	list, _ := jsonobj.Lookup(xr, "status", "claimConditionTypes")
	cur, _ := list.([]any)
	for _, v := range cur {
		if v == t {
			return
		}
	}
	setNested(xr, append(append([]any(nil), cur...), t), "status", "claimConditionTypes")
}

// mergeStatus applies a desired status over the current one the way a
// server-side apply of the status subresource does for the fields the
// composer owns: objects merge per key, status.conditions merges by type,
// and any other value replaces the current one.
func mergeStatus(cur, desired map[string]any) {
	for k, v := range desired {
		if k == "conditions" {
			cur[k] = mergeConditionLists(cur[k], v)
			continue
		}
		cur[k] = mergeValue(cur[k], v)
	}
}

func mergeValue(cur, desired any) any {
	cm, ok := cur.(map[string]any)
	dm, ok2 := desired.(map[string]any)
	if !ok || !ok2 {
		return jsonobj.DeepCopyValue(desired)
	}
	for k, v := range dm {
		cm[k] = mergeValue(cm[k], v)
	}
	return cm
}

func mergeConditionLists(cur, desired any) any {
	cl, ok := cur.([]any)
	dl, ok2 := desired.([]any)
	if !ok || !ok2 {
		return jsonobj.DeepCopyValue(desired)
	}
	out := append([]any(nil), cl...)
	for _, d := range dl {
		t := jsonobj.String(jsonobj.AsMap(d), "type")
		replaced := false
		for i := range out {
			if t != "" && jsonobj.String(jsonobj.AsMap(out[i]), "type") == t {
				out[i] = jsonobj.DeepCopyValue(d)
				replaced = true
				break
			}
		}
		if !replaced {
			out = append(out, jsonobj.DeepCopyValue(d))
		}
	}
	return out
}

// persistSpec merges what the desired XR has in its spec, labels and
// annotations into xr, as the native composer's XR update kept them.
func persistSpec(xr, desired map[string]any) {
	if spec, ok := desired["spec"].(map[string]any); ok {
		cur, _ := xr["spec"].(map[string]any)
		if cur == nil {
			cur = map[string]any{}
		}
		xr["spec"] = jsonobj.MergePatch(cur, spec)
	}
	for _, k := range []string{"labels", "annotations"} {
		m, ok := jsonobj.Lookup(desired, "metadata", k)
		if !ok {
			continue
		}
		dm, ok := m.(map[string]any)
		if !ok {
			continue
		}
		md, _ := xr["metadata"].(map[string]any)
		if md == nil {
			md = map[string]any{}
			xr["metadata"] = md
		}
		cur, _ := md[k].(map[string]any)
		if cur == nil {
			cur = map[string]any{}
		}
		md[k] = jsonobj.MergePatch(cur, dm)
	}
}
