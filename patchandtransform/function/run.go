package function

import (
	"maps"
	"strings"

	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"
	"github.com/pkg/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/xp"
	pt "github.com/xpmigrate/xpmigrate/patchandtransform"
)

// ContextKeyEnvironment is the context key the composition environment lives
// under. The function reads it before the environment patches and always
// writes it back on success.
const ContextKeyEnvironment = xp.ContextKeyEnvironment

// SecretTypeConnection is the type of the connection Secret the function
// composes for a Crossplane v2 XR.
const SecretTypeConnection = xp.SecretTypeConnection

// Ready is the readiness a function reports for a desired resource. The
// values are those of the protocol's Ready enum.
type Ready int32

// Readiness values. Unspecified is what Crossplane sends and what a rewritten
// desired XR gets back.
const (
	ReadyUnspecified Ready = 0
	ReadyTrue        Ready = 1
	ReadyFalse       Ready = 2
)

// Severity is the severity of a Result. The values are those of the
// protocol's Severity enum.
type Severity int32

// Result severities.
const (
	SeverityUnspecified Severity = 0
	SeverityFatal       Severity = 1
	SeverityWarning     Severity = 2
	SeverityNormal      Severity = 3
)

// Target says what a Result is reported on. The values are those of the
// protocol's Target enum.
type Target int32

// Result targets. The function reports everything on the XR.
const (
	TargetUnspecified       Target = 0
	TargetComposite         Target = 1
	TargetCompositeAndClaim Target = 2
)

// A Resource is one entry of a State: an object as a JSON value, its
// connection details and, in desired state, its readiness.
type Resource struct {
	// Resource is the object. Nil means absent and reads as an empty object.
	Resource map[string]any

	// ConnectionDetails are the observed connection details of an observed
	// resource, or the desired connection details of the desired XR. They
	// are ignored for desired composed resources, and dropped from them.
	ConnectionDetails map[string][]byte

	// Ready is meaningful in desired state only.
	Ready Ready
}

// A State is the observed or desired state of one XR and its composed
// resources, keyed by composition resource name.
type State struct {
	// Composite is the XR; nil when absent.
	Composite *Resource

	Resources map[string]Resource
}

// A Request is what the function reads from a RunFunctionRequest. Every
// value is a wire value: objects as decoded from a protobuf Struct, so every
// number is a float64 (docs/semantics/pipeline.md#numbers-at-the-function-boundary, rule N1). Run converts integers it
// finds to float64 on the way in, but never mutates the request.
type Request struct {
	// Observed is the state as of the start of the pipeline.
	Observed State

	// Desired is the state accumulated by earlier steps; nil when absent.
	Desired *State

	// Input is the step's input; nil when absent.
	Input map[string]any

	// Context is the pipeline context; nil when absent.
	Context map[string]any
}

// A Result is an event the function reports.
type Result struct {
	Severity Severity
	Message  string
	Target   Target
}

// A Response is what the function puts in its RunFunctionResponse, less the
// meta (tag and TTL), which belong to the protocol.
type Response struct {
	// Desired is the whole desired state for the next step. After a fatal
	// result it is the request's Desired itself, unchanged.
	Desired *State

	// Results are in the order the function reported them.
	Results []Result

	// Context is the context for the next step. After a fatal result it is
	// the request's Context itself, unchanged.
	Context map[string]any
}

// Run runs function-patch-and-transform v0.10.8 once (docs/semantics/pipeline.md#one-run).
//
// It decodes and validates req.Input, resolves patch sets, loads the
// environment from the context (stamping it internal.crossplane.io/v1alpha1
// Environment when it has no GVK), runs the environment patches, renders
// every template in order, composes a connection Secret for a Crossplane v2
// XR (one with spec.crossplane) that has connection details, and writes the
// environment back to the context.
//
// It behaves as the function does through the function SDK:
//   - a fatal result stops the run; the response then carries the results
//     reported so far and the request's desired state and context, none of
//     the partial work;
//   - the desired XR comes back with its connection details and with ready
//     UNSPECIFIED, or FALSE when a template was skipped because a Required
//     patch found no value for a resource that does not exist yet;
//   - every desired composed resource comes back with its ready and without
//     connection details;
//   - every result targets the XR.
//
// Objects in the response are wire values: every number is a float64, as
// after the trip back through a protobuf Struct. Empty connection details
// and an empty resource map are nil, as the wire cannot tell them from
// absent ones.
func Run(req Request) Response {
	return Prepare(req.Input).Run(req)
}

// A Prepared is a function input read once for many runs: decoded,
// validated and converted, with its patch sets resolved and its templates'
// bases parsed. A Prepared is immutable and safe for concurrent use.
type Prepared struct {
	in        *Resources
	templates []Template
	bases     []base
	envs      []pt.Patch

	// err is the fatal error reading the input fails every run with.
	err error
}

// base is a template's base parsed (BaseObject), or why it cannot be.
type base struct {
	object map[string]any
	err    error
}

// Prepare reads input as Run does before it looks at anything else. A
// problem with the input is not returned: every Run of the Prepared reports
// it, as Run would.
func Prepare(input map[string]any) *Prepared {
	in, err := Decode(input)
	if err != nil {
		// The function SDK wraps the decoder's error twice on its way.
		err = errors.Wrap(err, "cannot unmarshal JSON from *structpb.Struct into *v1beta1.Resources")
		err = errors.Wrap(err, "cannot get function input *v1beta1.Resources from *v1.RunFunctionRequest")
		return &Prepared{err: errors.Wrap(err, "cannot get Function input")}
	}
	return prepare(in)
}

// prepare is Prepare after decoding.
func prepare(in *Resources) *Prepared {
	if ferr := in.Validate(); ferr != nil {
		return &Prepared{err: errors.Wrap(ferr, "invalid Function input")}
	}
	templates := in.Templates()
	sets := in.CorePatchSets()
	for i := range templates {
		p, err := pt.ExpandPatchSets(sets, templates[i].Patches)
		if err != nil {
			return &Prepared{err: errors.Wrap(err, "cannot resolve PatchSets")}
		}
		templates[i].Patches = p
	}
	bases := make([]base, len(templates))
	for i, t := range templates {
		if len(t.Base) > 0 {
			bases[i].object, bases[i].err = t.BaseObject()
		}
	}
	return &Prepared{in: in, templates: templates, bases: bases, envs: in.EnvironmentPatches()}
}

// Run runs the function once with the prepared input, as Run does with
// req.Input; req.Input itself is ignored.
func (p *Prepared) Run(req Request) Response {
	return p.run(&run{}, req)
}

// RunOwned is Run for a caller that hands over the objects of req and takes
// the response's as they are, such as one that has just decoded req from a
// RunFunctionRequest and will encode the response into a
// RunFunctionResponse. The function reads req's observed objects in place
// rather than copying them, so they must be wire values already (every
// number a float64), and it still never modifies them. The response's
// objects may share maps with req's, and may hold int64 numbers, which a
// protobuf Struct holds as the same float64 a wire value would have.
func (p *Prepared) RunOwned(req Request) Response {
	return p.run(&run{owned: true}, req)
}

// RunOwnedNative is RunOwned with the mechanisms n switches on behaving as
// the native composer's (see Native).
func (p *Prepared) RunOwnedNative(req Request, n Native) Response {
	return p.run(&run{owned: true, native: n}, req)
}

func (p *Prepared) run(r *run, req Request) Response {
	desired, env, err := r.compose(p, req)
	if err != nil {
		r.results = append(r.results, Result{Severity: SeverityFatal, Message: err.Error(), Target: TargetComposite})
		return Response{Desired: req.Desired, Results: r.results, Context: req.Context}
	}
	ctx := make(map[string]any, len(req.Context)+1)
	maps.Copy(ctx, req.Context)
	ctx[ContextKeyEnvironment] = env
	if r.native.ReportSkipped && len(r.skipped) > 0 {
		ctx[ContextKeySkipped] = r.skipped
	}
	return Response{Desired: desired, Results: r.results, Context: ctx}
}

// run holds what one call of Run reports besides its outcome.
type run struct {
	results []Result

	// owned is set by RunOwned.
	owned bool

	// native are the mechanisms that behave as the native composer's.
	native Native

	// skipped are the templates skipped for a Required patch.
	skipped []any
}

// view returns a resource's object for reading only: a wire copy, or with
// owned the object itself. Either way a missing object is an empty one.
func (r *run) view(res *Resource) map[string]any {
	if r.owned {
		if res == nil || res.Resource == nil {
			return map[string]any{}
		}
		return res.Resource
	}
	return object(res)
}

// wire returns an object for the response: a wire copy, or with owned the
// object itself.
func (r *run) wire(o map[string]any) map[string]any {
	if r.owned {
		if o == nil {
			return map[string]any{}
		}
		return o
	}
	return wireCopy(o)
}

func (r *run) warn(err error) {
	r.results = append(r.results, Result{Severity: SeverityWarning, Message: err.Error(), Target: TargetComposite})
}

// composed is a desired composed resource while the function works on it.
type composed struct {
	object map[string]any
	ready  Ready
}

// compose does the work of Run. A returned error is a fatal result, with its
// full message.
func (r *run) compose(p *Prepared, req Request) (*State, map[string]any, error) {
	if p.err != nil {
		return nil, nil, p.err
	}
	in := p.in

	oxr := r.native.readsIntegers(fieldpath.Pave(r.view(req.Observed.Composite)))
	xr := &unstructured.Unstructured{Object: oxr.UnstructuredContent()}

	var dreq *Resource
	if req.Desired != nil {
		dreq = req.Desired.Composite
	}
	dxr := fieldpath.Pave(object(dreq))
	// The function needs a GVK to convert the desired XR, so it copies the
	// observed one, even when that is empty.
	u := &unstructured.Unstructured{Object: dxr.UnstructuredContent()}
	u.SetAPIVersion(xr.GetAPIVersion())
	u.SetKind(xr.GetKind())
	conn := map[string][]byte{}
	if dreq != nil {
		maps.Copy(conn, dreq.ConnectionDetails)
	}

	desired := map[string]composed{}
	if req.Desired != nil {
		for name, d := range req.Desired.Resources {
			desired[name] = composed{object: r.view(&d), ready: d.Ready}
		}
	}

	env := r.native.readsIntegers(fieldpath.Pave(environment(req.Context)))
	if r.native.EnvironmentGVK {
		environmentGVK(env.UnstructuredContent())
	}
	// With EnvironmentWritesVisible, the resource patches read the XR the
	// environment patches wrote to, as legacy's do.
	rxr := oxr
	if r.native.EnvironmentWritesVisible {
		rxr = fieldpath.Pave(jsonobj.DeepCopy(oxr.UnstructuredContent()))
	}

	for i, p := range p.envs {
		t := p.EffectiveType()
		var from, to *fieldpath.Paved
		switch t {
		case pt.PatchTypeFromCompositeFieldPath, pt.PatchTypeToEnvironmentFieldPath, pt.PatchTypeCombineFromComposite:
			from, to = oxr, env
		case pt.PatchTypeToCompositeFieldPath, pt.PatchTypeFromEnvironmentFieldPath, pt.PatchTypeCombineToComposite:
			from, to = env, dxr
		default:
			continue
		}
		if to == dxr && r.native.EnvironmentStatusLost && writesStatus(p) {
			to = fieldpath.Pave(map[string]any{})
		}
		if err := pt.Apply(pt.Function, p, from, to); err != nil {
			if pt.IsNotFound(err) && optional(p) {
				continue
			}
			return nil, nil, &PatchError{Type: t, Index: i, Cause: err}
		}
		if to != env && r.native.EnvironmentWritesVisible && writesXR(t) {
			_ = pt.Apply(pt.Function, p, env, rxr)
		}
	}

	skipped := 0
	for i, t := range p.templates {
		dcd, err := r.render(t, p.bases[i], req.Observed.Resources, desired, rxr, dxr, env, conn)
		if err != nil {
			return nil, nil, err
		}
		if dcd == nil {
			skipped++
			r.skipped = append(r.skipped, t.Name)
			continue
		}
		desired[t.Name] = *dcd
	}

	// A Crossplane v2 XR has no connection details of its own; the function
	// composes a Secret for them instead.
	if _, err := oxr.GetValue("spec.crossplane"); err == nil && len(conn) > 0 {
		s, err := connectionSecret(oxr, conn, in)
		if err != nil {
			return nil, nil, errors.Wrap(err, "cannot compose connection secret")
		}
		desired[xr.GetName()+"-connection-secret"] = composed{object: s, ready: ReadyTrue}
	}

	out := &State{Composite: &Resource{Resource: r.wire(dxr.UnstructuredContent())}}
	if len(conn) > 0 {
		out.Composite.ConnectionDetails = conn
	}
	if skipped > 0 {
		out.Composite.Ready = ReadyFalse
	}
	if len(desired) > 0 {
		out.Resources = make(map[string]Resource, len(desired))
		for name, d := range desired {
			out.Resources[name] = Resource{Resource: r.wire(d.object), Ready: d.ready}
		}
	}
	return out, r.wire(env.UnstructuredContent()), nil
}

// render renders one template (docs/semantics/pipeline.md#one-run step 8). It returns nil
// when the template is skipped, and an error for a fatal result. Connection
// details extracted from the observed resource are merged into conn.
func (r *run) render(t Template, b base, observed map[string]Resource, desired map[string]composed, oxr, dxr, env *fieldpath.Paved, conn map[string][]byte) (*composed, error) {
	var obj map[string]any
	if len(t.Base) == 0 {
		prev, ok := desired[t.Name]
		if !ok {
			return nil, errors.Errorf("composed resource %q has no base template, and was not produced by a previous Function in the pipeline", t.Name)
		}
		// An earlier template of this run may have left int64 numbers,
		// which the function keeps when it copies the resource.
		obj, _ = jsonobj.CopyTree(prev.object).(map[string]any)
	} else {
		if b.err != nil {
			return nil, errors.Wrapf(b.err, "cannot parse base template of composed resource %q", t.Name)
		}
		// A copy of the parsed base is what parsing it again would give.
		if b.object != nil {
			obj, _ = jsonobj.CopyTree(b.object).(map[string]any)
		}
		if md, ok := obj["metadata"].(map[string]any); ok && r.native.BaseNameIgnored {
			delete(md, "name")
			delete(md, "namespace")
		}
	}
	out := &composed{object: obj}

	// ocd stays nil when the resource was not observed; patches that read it
	// are then skipped without a word.
	var ocd *fieldpath.Paved
	o, exists := observed[t.Name]
	if exists {
		ocd = r.native.readsIntegers(fieldpath.Pave(r.view(&o)))

		// Only the name and namespace of the observed resource are kept,
		// removed when empty, so that the desired state stays an overlay.
		ou := &unstructured.Unstructured{Object: ocd.UnstructuredContent()}
		u := &unstructured.Unstructured{Object: obj}
		u.SetNamespace(ou.GetNamespace())
		u.SetName(ou.GetName())

		details, err := pt.ExtractConnectionDetails(pt.Function, ocd, o.ConnectionDetails, t.ConnectionDetails)
		if err != nil {
			r.warn(errors.Wrapf(err, "cannot extract composite resource connection details from composed resource %q", t.Name))
		}
		maps.Copy(conn, details)

		ready, err := r.ready(ocd, t.ReadinessChecks)
		if err != nil && r.native.ReadinessErrorFails {
			return nil, errors.Wrapf(err, "cannot check readiness of composed resource %q", t.Name)
		}
		if err != nil {
			r.warn(errors.Wrapf(err, "cannot check readiness of composed resource %q", t.Name))
		}
		if ready {
			out.ready = ReadyTrue
		}
	}

	dcd := fieldpath.Pave(obj)
	for i, p := range t.Patches {
		typ := p.EffectiveType()
		var from, to *fieldpath.Paved
		toComposed := false
		switch typ {
		case pt.PatchTypeToCompositeFieldPath, pt.PatchTypeCombineToComposite:
			from, to = ocd, dxr
		case pt.PatchTypeToEnvironmentFieldPath, pt.PatchTypeCombineToEnvironment:
			from, to = ocd, env
			if r.native.ToEnvironmentFromRendered {
				from = dcd
			}
		case pt.PatchTypeFromCompositeFieldPath, pt.PatchTypeCombineFromComposite:
			from, to, toComposed = oxr, dcd, true
		case pt.PatchTypeFromEnvironmentFieldPath, pt.PatchTypeCombineFromEnvironment:
			from, to, toComposed = env, dcd, true
		default:
			continue
		}
		requiredTo := r.native.RequiredToCompositeFails && p.Policy.Required() && to == dxr
		if from == nil && requiredTo {
			// Legacy reads the object it has just applied.
			from = dcd
		}
		if from == nil {
			continue
		}
		err := pt.Apply(pt.Function, p, from, to)
		switch {
		case err == nil:
		case !pt.IsNotFound(err) && r.native.PatchErrorSkipsResource && to != dxr:
			r.warn(errors.Wrapf(err, "cannot render composed resource %q %q patch at index %d", t.Name, typ, i))
			return nil, nil
		case !pt.IsNotFound(err):
			return nil, &PatchError{Resource: t.Name, Type: typ, Index: i, Cause: err}
		case requiredTo:
			return nil, &PatchError{Resource: t.Name, Type: typ, Index: i, Cause: err}
		case !p.Policy.Required():
			// The path may appear later; the patch is skipped for now.
		case toComposed && (!exists || r.native.RequiredSkipsExisting):
			// Required means "do not create the resource before the value
			// exists": drop the template, and with it its later patches.
			r.warn(errors.Wrapf(err, "not adding new composed resource %q to desired state because %q patch at index %d has 'policy.fromFieldPath: Required'", t.Name, typ, i))
			return nil, nil
		default:
			r.warn(errors.Wrapf(err, "cannot render composed resource %q %q patch at index %d: ignoring 'policy.fromFieldPath: Required' because 'to' resource already exists", t.Name, typ, i))
		}
	}
	if r.native.ReadinessErrorFails && !exists {
		// Legacy checks the readiness of the object it has just applied.
		if _, err := r.ready(dcd, t.ReadinessChecks); err != nil {
			return nil, errors.Wrapf(err, "cannot check readiness of composed resource %q", t.Name)
		}
	}
	out.object = dcd.UnstructuredContent()
	return out, nil
}

// optional reports whether a not-found error may be forgiven: the policy's
// fromFieldPath is absent or Optional.
func optional(p pt.Patch) bool {
	return p.Policy == nil || p.Policy.FromFieldPath == nil || *p.Policy.FromFieldPath == pt.FromFieldPathPolicyOptional
}

// environment returns a copy of the environment held in the context, or an
// empty one, with the internal Environment GVK when it has none. Like the
// Kubernetes helpers the function uses, an apiVersion that cannot be parsed
// counts as no GVK, even with a kind.
func environment(ctx map[string]any) map[string]any {
	env, _ := ctx[ContextKeyEnvironment].(map[string]any)
	out := wireCopy(env)
	u := &unstructured.Unstructured{Object: out}
	if u.GroupVersionKind().Empty() {
		u.SetGroupVersionKind(schema.GroupVersionKind{Group: xp.GroupEnvironment, Version: xp.EnvironmentVersion, Kind: xp.EnvironmentKind})
	}
	return out
}

// secretRef has the JSON shape of crossplane-runtime's SecretReference.
type secretRef struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace"`
}

// connectionSecret composes the Secret that holds a v2 XR's connection
// details.
func connectionSecret(xr *fieldpath.Paved, conn map[string][]byte, in *Resources) (map[string]any, error) {
	ref, err := connectionSecretRef(xr, in)
	if err != nil {
		return nil, errors.Wrap(err, "cannot generate connection secret reference")
	}
	u := &unstructured.Unstructured{Object: map[string]any{}}
	u.SetAPIVersion("v1")
	u.SetKind("Secret")
	u.SetName(ref.Name)
	u.SetNamespace(ref.Namespace)
	s := fieldpath.Pave(u.Object)
	if err := s.SetValue("data", conn); err != nil {
		return nil, errors.Wrap(err, "cannot set connection secret data")
	}
	if err := s.SetValue("type", SecretTypeConnection); err != nil {
		return nil, errors.Wrap(err, "cannot set connection secret type")
	}
	return s.UnstructuredContent(), nil
}

// ConnectionSecretName returns the name and namespace of the connection
// Secret the function composes for the v2 XR xr with input in (as Run
// does: the XR's spec.writeConnectionSecretToRef, else the input's, else
// `<xr>-connection`, then the input's patches).
func ConnectionSecretName(xr map[string]any, in *Resources) (name, namespace string, err error) {
	ref, err := connectionSecretRef(fieldpath.Pave(xr), in)
	return ref.Name, ref.Namespace, err
}

// connectionSecretRef names the connection Secret. The XR's own
// spec.writeConnectionSecretToRef wins when it can be read; then the input's
// name and namespace when either is set; then `<xr>-connection` in the XR's
// namespace. The input's patches then apply on top.
func connectionSecretRef(xr *fieldpath.Paved, in *Resources) (secretRef, error) {
	input := in.ConnectionSecretRef()
	ref := secretRef{}
	if err := xr.GetValueInto("spec.writeConnectionSecretToRef", &ref); err != nil {
		u := &unstructured.Unstructured{Object: xr.UnstructuredContent()}
		ref = secretRef{Name: u.GetName() + "-connection", Namespace: u.GetNamespace()}
		if input != nil && (input.Name != "" || input.Namespace != "") {
			ref = secretRef{Name: input.Name, Namespace: input.Namespace}
		}
	}
	if input == nil || len(input.Patches) == 0 {
		return ref, nil
	}

	to := fieldpath.Pave(map[string]any{"apiVersion": "v1", "kind": "SecretReference", "name": ref.Name, "namespace": ref.Namespace})
	for i, p := range input.Patches {
		policy := in.WriteConnectionSecretToRef.Patches[i].Policy
		switch t := p.EffectiveType(); t {
		case pt.PatchTypeFromCompositeFieldPath:
			if err := applyRefPatch(p, policy, xr, to); err != nil {
				// Unlike everywhere else, any error of an Optional patch
				// is forgiven here, not only a missing value.
				if optional(p) {
					continue
				}
				return secretRef{}, errors.Wrap(errors.Wrapf(err, "cannot apply patch type %s at index %d", t, i), "cannot apply connection secret patches")
			}
		case pt.PatchTypeCombineFromComposite:
			if err := applyRefPatch(p, policy, xr, to); err != nil {
				return secretRef{}, errors.Wrap(errors.Wrapf(err, "cannot apply patch type %s at index %d", t, i), "cannot apply connection secret patches")
			}
		default:
			return secretRef{}, errors.Wrap(errors.Errorf("unsupported patch type %s at index %d", t, i), "cannot apply connection secret patches")
		}
	}
	if s, ok := to.UnstructuredContent()["name"].(string); ok {
		ref.Name = s
	}
	if s, ok := to.UnstructuredContent()["namespace"].(string); ok {
		ref.Namespace = s
	}
	return ref, nil
}

// applyRefPatch applies one connection Secret patch. These patches are never
// validated, so policy.toFieldPath may hold a value the function does not
// know; it then fails, but only after reading and transforming the value, so
// an earlier error wins.
func applyRefPatch(p pt.Patch, policy *PatchPolicy, from, to *fieldpath.Paved) error {
	if _, ok := mergeOptions(policy.toFieldPath()); ok {
		return pt.Apply(pt.Function, p, from, to)
	}
	probe, path := p, "value"
	probe.ToFieldPath, probe.Policy = &path, nil
	if err := pt.Apply(pt.Function, probe, from, fieldpath.Pave(map[string]any{})); err != nil {
		return err
	}
	return errors.Errorf("invalid patch policy %s", policy.toFieldPath())
}

// object returns a wire copy of a resource's object; an empty object when
// there is none.
func object(r *Resource) map[string]any {
	if r == nil {
		return map[string]any{}
	}
	return wireCopy(r.Resource)
}

// wireCopy returns a deep copy of o in which every number is a float64. A nil o
// gives an empty object.
func wireCopy(o map[string]any) map[string]any {
	out, _ := pt.WireNumbers(o).(map[string]any)
	if out == nil {
		return map[string]any{}
	}
	return out
}

// ready checks a composed resource's readiness, as the function does, or
// with NativeReadiness as the native composer does.
func (r *run) ready(ocd *fieldpath.Paved, checks []pt.ReadinessCheck) (bool, error) {
	if !r.native.NativeReadiness {
		return pt.IsReady(pt.Function, ocd, checks)
	}
	return pt.IsReady(pt.Native, fieldpath.Pave(integerObject(ocd.UnstructuredContent())), checks)
}

// writesStatus reports whether a patch writes under the XR's status.
func writesStatus(p pt.Patch) bool {
	to := ""
	if p.ToFieldPath != nil {
		to = *p.ToFieldPath
	} else if p.FromFieldPath != nil {
		to = *p.FromFieldPath
	}
	return to == "status" || strings.HasPrefix(to, "status.") || strings.HasPrefix(to, "status[")
}
