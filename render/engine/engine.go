package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/environment"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/internal/errkind"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/xp"
	"github.com/xpmigrate/xpmigrate/patchandtransform/native"
	"github.com/xpmigrate/xpmigrate/render"
	"github.com/xpmigrate/xpmigrate/render/legacy"
	"github.com/xpmigrate/xpmigrate/render/pipeline"
)

// MaxStableLoops bounds Options.UntilStable.
const MaxStableLoops = 10

// A Request holds the objects one render reads.
type Request struct {
	// XR is the composite resource, or a claim when XRD is set.
	XR map[string]any

	// Composition is the Composition object.
	Composition map[string]any

	// Functions are pkg.crossplane.io Function objects. Optional: the
	// built-in functions need none.
	Functions []map[string]any

	// Observed are the composed resources that exist.
	Observed []map[string]any

	// Extra are the other objects in the "cluster": EnvironmentConfigs for
	// both the native environment and function-environment-configs, and
	// whatever functions require.
	Extra []map[string]any

	// Context seeds the pipeline context, by key.
	Context map[string]any

	// Credentials are Secrets for steps' credentials.
	Credentials []map[string]any

	// XRD is the CompositeResourceDefinition; with it XR may be a claim,
	// and its schema decides which null fields of XR survive (PruneXR).
	XRD map[string]any

	// ObservedConnectionDetails are the observed composed resources'
	// connection details by composition resource name (toolkit-only).
	ObservedConnectionDetails map[string]map[string][]byte

	// Stored says XR is already as the API server stored it (its nulls
	// pruned by PruneXR, as the caller knows the schema): Render reads it
	// as given.
	Stored bool
}

// Options tune a render.
type Options struct {
	// Loops is how many reconciles to simulate; 0 means 1.
	Loops int

	// UntilStable keeps reconciling until the outcome stops changing, at
	// most MaxStableLoops times. It overrides Loops.
	UntilStable bool

	// Target is the Crossplane line the pipeline side emulates:
	// crossplane.V1 (Crossplane v1.20.11, the default for "") or V2.
	Target crossplane.Target

	// Profile chooses what the pipeline engine reproduces where crossplane
	// render and the reconciler differ. The default is crossplane render
	// v1.20.11.
	Profile pipeline.Profile

	// ClusterScoped tells, for target V2, whether a composed type is
	// cluster-scoped (pipeline.Options.ClusterScoped); nil uses
	// pipeline.KnownClusterScoped.
	ClusterScoped func(apiVersion, kind string) bool

	// Builtins are the in-process functions. Nil uses Builtins().
	Builtins BuiltinSet

	// Native switches pipeline composer mechanisms to the native
	// composer's behaviour, for counterfactual renders (pipeline.Native).
	Native pipeline.Native

	// Observe, when set, is called after every reconcile that succeeds,
	// with its number (from 1), its outcome, and whether it repeated the
	// one before. Callers that need every reconcile use it instead of
	// rendering 1, 2, ... n loops from the start.
	Observe func(loop int, out *render.Outcome, stable bool)
}

// A Result is a render's outcome and how many reconciles produced it.
type Result struct {
	Outcome *render.Outcome

	// Mode is "Resources" or "Pipeline".
	Mode string

	// Loops is how many reconciles ran.
	Loops int

	// Stable reports whether the last reconcile changed nothing (only
	// meaningful with more than one loop).
	Stable bool
}

// Render renders req. Input problems are render.InputError; a reconcile
// that fails returns the fatal error.
func Render(ctx context.Context, req Request, o Options) (*Result, error) {
	// What Crossplane reads was stored by the API server, which drops nulls
	// from fields its schema does not declare nullable (XRD schemas rarely
	// do): an XR applied with `size: null` has no size. Both engines read
	// the objects as stored: by the XRD's schema when there is one (see
	// PruneXR), else with every null dropped.
	xr := req.XR
	if !req.Stored {
		xr, _ = PruneXR(req.XR, req.XRD)
	}
	req.Observed = pruneAll(req.Observed)
	extra, err := distinctEnvironmentConfigs(req.Extra, nil)
	if err != nil {
		return nil, err
	}
	req.Extra = extra
	if xr, err = CompositeOf(xr, req.XRD); err != nil {
		return nil, errkind.InvalidInput(err)
	}
	if err := checkCompatible(xr, req.Composition); err != nil {
		return nil, err
	}

	mode, _ := jsonobj.LookupString(req.Composition, "spec", "mode")
	if mode == "" {
		mode = "Resources"
	}

	var step func(ctx context.Context, xr map[string]any, observed []map[string]any) (*render.Outcome, error)
	switch mode {
	case "Resources":
		s, err := newLegacy(req)
		if err != nil {
			return nil, err
		}
		step = s
	case "Pipeline":
		s, closeFns, err := newPipeline(req, o)
		if err != nil {
			return nil, err
		}
		defer closeFns()
		step = s
	default:
		return nil, errkind.InvalidInputf("composition %q: spec.mode: unsupported value %q", name(req.Composition), mode)
	}

	loops := o.Loops
	if loops < 1 {
		loops = 1
	}
	if o.UntilStable {
		loops = MaxStableLoops
	}

	res := &Result{Mode: mode}
	observed := req.Observed
	var prev digest
	for i := 0; i < loops; i++ {
		out, err := step(ctx, xr, observed)
		res.Outcome = out
		res.Loops = i + 1
		if err != nil {
			return res, err
		}
		if loops == 1 {
			if o.Observe != nil {
				o.Observe(1, out, false)
			}
			break
		}
		cur := fingerprint(out)
		repeated := i > 0 && prev == cur
		if o.Observe != nil {
			o.Observe(i+1, out, repeated)
		}
		if repeated {
			res.Stable = true
			if o.UntilStable {
				break
			}
		}
		prev = cur
		xr, observed = nextState(mode, xr, out, observed)
	}
	return res, nil
}

func newLegacy(req Request) (func(context.Context, map[string]any, []map[string]any) (*render.Outcome, error), error) {
	c, err := decodeComposition(req.Composition)
	if err != nil {
		return nil, err
	}
	c.Default()
	if errs := c.Validate(); len(errs) > 0 {
		return nil, errkind.InvalidInput(&InvalidCompositionError{err: errors.Wrapf(errs.ToAggregate(), "invalid Composition %q", name(req.Composition))})
	}
	configs, err := environmentConfigs(req.Extra)
	if err != nil {
		return nil, err
	}
	opts := legacy.Options{
		EnvironmentConfigs:   configs,
		ConnectionSecrets:    connectionSecrets(req.Extra),
		ConnectionSecretKeys: connectionSecretKeys(req.XRD),
	}
	// Every reconcile composes with the same Composition: read it once.
	lc := legacy.NewComposer(c)
	return func(_ context.Context, xr map[string]any, observed []map[string]any) (*render.Outcome, error) {
		return lc.Compose(withResourceRefs(xr, c, observed), observed, opts)
	}, nil
}

// decodeComposition reads the Composition object as native.Decode reads
// its JSON text: straight from the tree when native.DecodeTree can vouch
// for it, else through the text.
func decodeComposition(comp map[string]any) (*native.Composition, error) {
	if c, ok := native.DecodeTree(comp); ok {
		return c, nil
	}
	raw, err := jsonobj.Marshal(comp)
	if err != nil {
		return nil, errors.Wrap(err, "cannot encode composition")
	}
	c, err := native.DecodeJSON(raw)
	if err != nil {
		return nil, errkind.InvalidInput(&InvalidCompositionError{err: errors.Wrapf(err, "invalid Composition %q", name(comp))})
	}
	return c, nil
}

// An InvalidCompositionError is a legacy Composition that the API server's
// schema or webhook would refuse, so that no Crossplane would compose with
// it. It is invalid input (a render.InputError wraps it).
type InvalidCompositionError struct{ err error }

func (e *InvalidCompositionError) Error() string { return e.err.Error() }

// Unwrap returns the validation error.
func (e *InvalidCompositionError) Unwrap() error { return e.err }

func newPipeline(req Request, o Options) (func(context.Context, map[string]any, []map[string]any) (*render.Outcome, error), func(), error) {
	builtins := o.Builtins
	if builtins == nil {
		builtins = Builtins(o.Target)
	}
	fns, closeFns, err := resolveFunctions(req.Composition, req.Functions, builtins)
	if err != nil {
		return nil, nil, err
	}
	creds, err := credentials(req.Credentials)
	if err != nil {
		closeFns()
		return nil, nil, err
	}
	po := pipeline.Options{
		Profile:                   o.Profile,
		ExtraResources:            req.Extra,
		Context:                   req.Context,
		Credentials:               creds,
		ObservedConnectionDetails: req.ObservedConnectionDetails,
		Dialect:                   o.Target,
		ClusterScoped:             o.ClusterScoped,
		Native:                    o.Native,
	}
	// Every reconcile composes with the same Composition: read it once.
	c := pipeline.NewComposer(req.Composition)
	return func(ctx context.Context, xr map[string]any, observed []map[string]any) (*render.Outcome, error) {
		return c.Compose(ctx, xr, observed, fns, po)
	}, closeFns, nil
}

// nextState feeds a reconcile's outcome back as the next reconcile's input:
// the XR as persisted, and the composed resources as they would exist.
func nextState(mode string, xr map[string]any, out *render.Outcome, observed []map[string]any) (map[string]any, []map[string]any) {
	if out == nil {
		return xr, observed
	}
	nxr := out.EffectiveXR
	if nxr == nil {
		nxr = xr
	}
	next := make([]map[string]any, 0, len(out.Composed))
	seen := map[string]bool{}
	for _, cd := range out.Composed {
		obj := cd.Applied
		if obj == nil {
			continue
		}
		// Both engines leave the objects they observe alone, so the
		// next reconcile may observe this one's outcome as it is.
		if mode == "Pipeline" {
			prev := observedByName(observed, cd.Name)
			if prev == nil {
				// asExisting names the object in place.
				obj = jsonobj.DeepCopy(obj)
			}
			obj = asExisting(nxr, cd.Name, obj, prev)
		}
		next = append(next, obj)
		seen[kindName(obj)] = true
	}
	// Objects that were not rendered this time still exist.
	for _, o := range observed {
		if !seen[kindName(o)] {
			next = append(next, o)
		}
	}
	return nxr, next
}

// asExisting turns a desired pipeline resource into the object the cluster
// would hold after applying it: merged onto what was observed (which keeps
// its status), or created without the desired status (the API server
// ignores a composed resource's status), with a name when it had none.
func asExisting(xr map[string]any, resName string, desired, observed map[string]any) map[string]any {
	out := desired
	if observed == nil {
		delete(out, "status") // desired is the caller's copy.
	}
	if observed != nil {
		// MergePatch copies what it takes from the patch: desired less
		// its status needs no copy of its own.
		patch := make(map[string]any, len(desired))
		for k, v := range desired {
			if k != "status" {
				patch[k] = v
			}
		}
		out = jsonobj.MergePatch(jsonobj.DeepCopy(observed), patch)
	}
	md, _ := out["metadata"].(map[string]any)
	if md == nil {
		md = map[string]any{}
		out["metadata"] = md
	}
	if n, _ := md["name"].(string); n == "" {
		gn, _ := md["generateName"].(string)
		uid, _ := jsonobj.LookupString(xr, "metadata", "uid")
		md["name"] = render.GeneratedName(gn, uid, nameOf(xr), resName, 0)
	}
	return out
}

func observedByName(observed []map[string]any, resName string) map[string]any {
	for _, o := range observed {
		if jsonobj.Annotation(o, render.AnnotationCompositionResourceName) == resName {
			return o
		}
	}
	return nil
}

func pruneAll(objs []map[string]any) []map[string]any {
	if objs == nil {
		return nil
	}
	out := make([]map[string]any, len(objs))
	for i, o := range objs {
		out[i] = jsonobj.PruneNulls(o)
	}
	return out
}

func checkCompatible(xr, comp map[string]any) error {
	av, _ := comp["apiVersion"].(string)
	k, _ := comp["kind"].(string)
	if av != xp.CompositionAPIVersion || k != "Composition" {
		return errkind.InvalidInputf("not a composition: %s/%s", k, name(comp))
	}
	wantKind, _ := jsonobj.LookupString(comp, "spec", "compositeTypeRef", "kind")
	wantAV, _ := jsonobj.LookupString(comp, "spec", "compositeTypeRef", "apiVersion")
	gotKind, _ := xr["kind"].(string)
	gotAV, _ := xr["apiVersion"].(string)
	if wantKind != gotKind {
		return errkind.InvalidInputf("composition's compositeTypeRef.kind (%s) does not match XR's kind (%s)", wantKind, gotKind)
	}
	if wantAV != gotAV {
		return errkind.InvalidInputf("composition's compositeTypeRef.apiVersion (%s) does not match XR's apiVersion (%s)", wantAV, gotAV)
	}
	// An XR that selects Compositions by label would never get this one.
	return errkind.InvalidInput(pipeline.CheckCompositionSelector(xr, comp))
}

func environmentConfigs(extra []map[string]any) (*environment.Set, error) {
	cfgs, _, err := loadEnvironmentConfigs(extra, nil)
	if err != nil {
		return nil, err
	}
	s, err := environment.NewSet(cfgs...)
	if err != nil {
		return nil, errkind.InvalidInput(err)
	}
	return s, nil
}

// loadEnvironmentConfigs reads the EnvironmentConfigs among the extra
// objects, each with its source (sources[i] names extra[i]; nil names
// them by position), and the position in extra of each.
func loadEnvironmentConfigs(extra []map[string]any, sources []string) ([]environment.Config, []int, error) {
	var cfgs []environment.Config
	var at []int
	for i, o := range extra {
		av, _ := o["apiVersion"].(string)
		if k, _ := o["kind"].(string); k != "EnvironmentConfig" || !environment.IsConfigAPIVersion(av) {
			continue
		}
		b, err := json.Marshal(o)
		if err != nil {
			return nil, nil, errors.Wrap(err, "cannot encode EnvironmentConfig")
		}
		c, err := environment.Load(b)
		if err != nil {
			return nil, nil, errkind.InvalidInput(errors.Wrapf(err, "invalid EnvironmentConfig %q", name(o)))
		}
		src := fmt.Sprintf("extra resource %d (%s)", i+1, av)
		if sources != nil {
			src = sources[i]
		}
		for j := range c {
			c[j].Source = src
			at = append(at, i)
		}
		cfgs = append(cfgs, c...)
	}
	return cfgs, at, nil
}

// distinctEnvironmentConfigs returns extra without the copies of an
// EnvironmentConfig given at several API versions (the first is kept), as
// an API server holds one object: without this, function-environment-
// configs would see two objects where the cluster has one. A name given
// twice with different content is invalid input naming both (sources[i]
// names extra[i]; nil names them by position).
func distinctEnvironmentConfigs(extra []map[string]any, sources []string) ([]map[string]any, error) {
	if !repeatsEnvironmentConfigName(extra) {
		return extra, nil
	}
	cfgs, at, err := loadEnvironmentConfigs(extra, sources)
	if err != nil || len(cfgs) < 2 {
		return extra, err
	}
	keep, err := environment.Distinct(cfgs)
	if err != nil {
		return nil, errkind.InvalidInput(err)
	}
	if len(keep) == len(cfgs) {
		return extra, nil
	}
	kept := make(map[int]bool, len(keep))
	for _, k := range keep {
		kept[at[k]] = true
	}
	drop := make(map[int]bool, len(cfgs)-len(keep))
	for _, i := range at {
		if !kept[i] {
			drop[i] = true
		}
	}
	out := make([]map[string]any, 0, len(extra)-len(drop))
	for i, o := range extra {
		if !drop[i] {
			out = append(out, o)
		}
	}
	return out, nil
}

// repeatsEnvironmentConfigName reports whether two EnvironmentConfigs
// among extra share a name: without that there is nothing to reconcile.
func repeatsEnvironmentConfigName(extra []map[string]any) bool {
	seen := map[string]bool{}
	for _, o := range extra {
		av, _ := o["apiVersion"].(string)
		if k, _ := o["kind"].(string); k != "EnvironmentConfig" || !environment.IsConfigAPIVersion(av) {
			continue
		}
		n := name(o)
		if seen[n] {
			return true
		}
		seen[n] = true
	}
	return false
}

// DistinctExtra returns the objects of docs (the extra resources of a
// render, verify or migrate run, read from files) without the copies of
// an EnvironmentConfig given at several API versions: the first copy is
// kept. Two EnvironmentConfigs of one name whose content differs are
// invalid input naming both files and documents.
func DistinctExtra(docs []manifest.Document) ([]map[string]any, error) {
	objs := manifest.Objects(docs)
	sources := make([]string, len(docs))
	for i, d := range docs {
		sources[i] = fmt.Sprintf("%s document %d", d.Source, d.Index+1)
	}
	return distinctEnvironmentConfigs(objs, sources)
}

// connectionSecrets indexes the Secrets among the extra resources by
// namespace/name.
func connectionSecrets(extra []map[string]any) map[string]map[string][]byte {
	out := map[string]map[string][]byte{}
	for _, o := range extra {
		if k, _ := o["kind"].(string); k != "Secret" {
			continue
		}
		if av, _ := o["apiVersion"].(string); av != "v1" {
			continue
		}
		s, err := pipeline.SecretFromObject(o)
		if err != nil {
			continue
		}
		out[s.Namespace+"/"+s.Name] = s.Data
	}
	return out
}

func credentials(objs []map[string]any) (pipeline.Secrets, error) {
	var out pipeline.Secrets
	for _, o := range objs {
		s, err := pipeline.SecretFromObject(o)
		if err != nil {
			return nil, errkind.InvalidInput(errors.Wrapf(err, "invalid credentials Secret %q", name(o)))
		}
		out = append(out, s)
	}
	return out, nil
}

func connectionSecretKeys(xrd map[string]any) []string {
	if xrd == nil {
		return nil
	}
	spec, _ := xrd["spec"].(map[string]any)
	raw, _ := spec["connectionSecretKeys"].([]any)
	out := make([]string, 0, len(raw))
	for _, k := range raw {
		if s, ok := k.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// withResourceRefs lets observed resources given on the command line count
// in legacy mode, where Crossplane finds composed resources through the
// XR's spec.resourceRefs: when the XR has none, they are made from the
// observed objects, named templates by their composition-resource-name
// annotation, anonymous templates in the order the objects were given.
func withResourceRefs(xr map[string]any, c *native.Composition, observed []map[string]any) map[string]any {
	if len(observed) == 0 {
		return xr
	}
	if refs, _ := jsonobj.Value(xr, "spec", "resourceRefs").([]any); len(refs) > 0 {
		return xr
	}
	// A namespaced object's reference keeps its namespace, as Crossplane
	// v1.20.11 writes it.
	ref := func(o map[string]any) map[string]any {
		av, _ := o["apiVersion"].(string)
		k, _ := o["kind"].(string)
		r := map[string]any{"apiVersion": av, "kind": k, "name": nameOf(o)}
		if ns, _ := jsonobj.LookupString(o, "metadata", "namespace"); ns != "" {
			r["namespace"] = ns
		}
		return r
	}
	var refs []any
	templates := c.Templates()
	named := len(templates) > 0 && templates[0].Name != ""
	for i, t := range templates {
		if named {
			if o := observedByName(observed, t.Name); o != nil {
				refs = append(refs, ref(o))
			}
			continue
		}
		if i < len(observed) {
			refs = append(refs, ref(observed[i]))
		}
	}
	out := jsonobj.DeepCopy(xr)
	spec, _ := out["spec"].(map[string]any)
	if spec == nil {
		spec = map[string]any{}
		out["spec"] = spec
	}
	spec["resourceRefs"] = refs
	return out
}

func kindName(o map[string]any) string {
	k, _ := o["kind"].(string)
	av, _ := o["apiVersion"].(string)
	g := av
	if i := strings.Index(av, "/"); i >= 0 {
		g = av[:i]
	}
	return g + "/" + k + "/" + nameOf(o)
}

func nameOf(o map[string]any) string {
	s, _ := jsonobj.LookupString(o, "metadata", "name")
	return s
}

func name(o map[string]any) string { return nameOf(o) }
