package legacy

import (
	"fmt"
	"slices"
	"sync"

	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"
	"github.com/pkg/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	kjson "k8s.io/apimachinery/pkg/util/json"

	"github.com/xpmigrate/xpmigrate/environment"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	pt "github.com/xpmigrate/xpmigrate/patchandtransform"
	"github.com/xpmigrate/xpmigrate/patchandtransform/native"
	"github.com/xpmigrate/xpmigrate/render"
)

// Crossplane releases whose texts Compose can reproduce (docs/semantics/legacy.md#target-releases).
const (
	TargetV117 = native.TargetV117
	TargetV120 = native.TargetV120
)

// Options tune one reconcile. The zero value renders as Crossplane v1.20.11,
// with the environment on when the Composition uses it.
type Options struct {
	// EnvironmentConfigs are the EnvironmentConfigs in the cluster, for
	// the native environment. Nil means none.
	EnvironmentConfigs *environment.Set

	// ConnectionSecrets are the Secrets in the cluster, keyed by
	// "<namespace>/<name>": those composed resources name in
	// spec.writeConnectionSecretToRef (for FromConnectionSecretKey
	// details), and the XR's own, if it exists (to tell whether publishing
	// changes it).
	ConnectionSecrets map[string]map[string][]byte

	// ConnectionSecretKeys is the XRD's spec.connectionSecretKeys: only
	// these keys are published. Empty publishes every key.
	ConnectionSecretKeys []string

	// NameGenerator returns a name for a new composed resource given its
	// generateName prefix, already cut to 58 characters. The API server
	// appends 5 random characters from "bcdfghjklmnpqrstvwxz2456789". A
	// name that an observed object of the same kind already has is
	// rejected, and the generator is called again, at most 10 times. Nil
	// uses a deterministic generator (see the package documentation).
	NameGenerator func(prefix string) string

	// Target selects the release-specific texts: TargetV120 (the default,
	// also for "") or TargetV117. Semantics are the union of both
	// releases either way: v1.20.11 behaviour plus the v1.17.6
	// environment when it is enabled.
	Target native.Target

	// EnvironmentEnabled turns the v1.17 composition environment
	// (--enable-environment-configs) on or off. Nil turns it on when the
	// Composition has spec.environment or uses an environment patch type.
	// Off, environment patches do nothing, and, for TargetV120,
	// environment patch types make the Composition invalid.
	EnvironmentEnabled *bool
}

// Compose runs one reconcile of the composite resource xr with the
// `mode: Resources` Composition c, against a cluster holding the observed
// composed resources, and returns what the reconcile leaves behind.
//
// c must be as the API server stores it: Decode it and call Default first
// (Compose does not default, Q-1 in docs/semantics/legacy.md#quirks). xr and the observed objects are not
// modified. Observed objects are found by the references in the XR's
// spec.resourceRefs (by API group, kind and name), and any observed object
// counts when a generated name is checked for availability.
//
// The Outcome holds:
//   - XR: the XR as `crossplane render` prints one (apiVersion, kind,
//     metadata.name, the spec and metadata fields patches changed, and the
//     persisted status with the Synced and Ready conditions);
//   - EffectiveXR: the XR as the API server keeps it afterwards;
//   - Composed: one entry per template the reconcile reached, in template
//     order. Desired is the body sent (create body or merge patch, after
//     the apply-time merge; a status from the base is sent too and
//     ignored by the API server), or for a template rendered but not
//     applied before a fatal error the object rendered; Applied is the
//     object after the apply;
//   - Deleted: the names of objects garbage-collected;
//   - ConnectionDetails: the XR's connection details, filtered by
//     Options.ConnectionSecretKeys (see ConnectionSecret for the Secret);
//   - Events: the events the reconcile records, in order.
//
// The error is the reconcile's fatal error, with the text Crossplane sets on
// the XR's Synced condition (e.g. "cannot compose resources: ..."); the
// Outcome then shows the state the reconcile left, and, as in Crossplane,
// only the fatal error's event (the composer's warnings are lost). A nil
// Outcome means the inputs could not be composed at all (no XR name, a
// Pipeline Composition, an unknown Target).
func Compose(xr map[string]any, c *native.Composition, observed []map[string]any, o Options) (*render.Outcome, error) {
	return NewComposer(c).Compose(xr, observed, o)
}

// A Composer composes with one Composition again and again, as successive
// reconciles do. It reads the Composition once, when first needed: the
// templates in core types, their patches with PatchSets expanded, their
// decoded bases, and the reconcile-time validation of each target. The
// Composition must not change while the Composer is in use. A Composer is
// safe for concurrent use.
type Composer struct {
	comp *native.Composition

	templatesOnce sync.Once
	templates     *templates

	validateOnce [2]sync.Once
	validateErr  [2]error
}

// templates is what every reconcile reads of spec.resources and
// spec.patchSets. Nothing of it is modified once made.
type templates struct {
	list []native.Template

	// patches are each template's patches, PatchSets expanded; nil when
	// expanding failed with expandErr.
	patches   [][]pt.Patch
	expandErr error

	// bases are the decoded bases, or the error decoding each failed with.
	bases    []map[string]any
	baseErrs []error
}

// NewComposer returns a Composer for c, which must be as Compose requires.
func NewComposer(c *native.Composition) *Composer {
	return &Composer{comp: c}
}

// Compose is the package's Compose with the Composer's Composition.
func (p *Composer) Compose(xr map[string]any, observed []map[string]any, o Options) (*render.Outcome, error) {
	cp, err := newComposer(xr, p, observed, o)
	if err != nil {
		return nil, err
	}
	return cp.reconcile()
}

// prepared returns the templates, reading them on first use.
func (p *Composer) prepared() *templates {
	p.templatesOnce.Do(func() {
		ts := p.comp.Templates()
		out := &templates{list: ts, bases: make([]map[string]any, len(ts)), baseErrs: make([]error, len(ts))}
		sets := p.comp.PatchSets()
		patches := make([][]pt.Patch, len(ts))
		for i, t := range ts {
			ps, err := pt.ExpandPatchSets(sets, t.Patches)
			if err != nil {
				patches, out.expandErr = nil, err
				break
			}
			patches[i] = ps
		}
		out.patches = patches
		for i, t := range ts {
			// Decoded as Crossplane decodes a base: into an Unstructured,
			// which wants a kind.
			u := &unstructured.Unstructured{}
			if err := kjson.Unmarshal(t.Base, u); err != nil {
				out.baseErrs[i] = err
				continue
			}
			out.bases[i] = u.Object
		}
		p.templates = out
	})
	return p.templates
}

// validation returns the reconcile-time validation's verdict for target t,
// running it on first use.
func (p *Composer) validation(t native.Target, run func() error) error {
	i := 0
	if t == TargetV117 {
		i = 1
	}
	p.validateOnce[i].Do(func() { p.validateErr[i] = run() })
	return p.validateErr[i]
}

// A composer holds the state of one reconcile.
type composer struct {
	opts   Options
	comp   *native.Composition
	shared *Composer
	target native.Target
	envOn  bool
	names  nameGenerator

	// cluster is the composed resources that exist, in input order.
	cluster []map[string]any

	// index finds objects in cluster by key; nil until first needed, and
	// whenever a change makes it stale.
	index map[objectKey][]int

	// xr is the XR as the reconcile holds it in memory.
	xr *fieldpath.Paved

	// stored is the XR as the API server holds it.
	stored map[string]any

	// input is the XR as given, normalised.
	input map[string]any

	// configured records which bookkeeping fields the configurators set.
	configured struct {
		label, secretRef bool
	}

	// env is the composition environment, nil when disabled.
	env *fieldpath.Paved

	// composed has one entry per template, once rendering started.
	composed []*composedState

	// deleted are the objects garbage-collected this reconcile.
	deleted []string

	// events are the Warning events of the composer.
	events []render.Event
}

func newComposer(xr map[string]any, shared *Composer, observed []map[string]any, o Options) (*composer, error) {
	c := shared.comp
	if c == nil {
		return nil, errors.New("cannot compose: no Composition")
	}
	if m := c.Spec.Mode; m != nil && *m != native.CompositionModeResources {
		return nil, errors.Errorf("cannot compose: Composition %q has mode %s, not Resources", c.Metadata.Name, *m)
	}
	target := o.Target
	switch target {
	case "":
		target = TargetV120
	case TargetV117, TargetV120:
	default:
		return nil, errors.Errorf("cannot compose: unknown target %q (want %s or %s)", o.Target, TargetV117, TargetV120)
	}

	in, err := normalized(xr)
	if err != nil {
		return nil, errors.Wrap(err, "cannot compose: cannot read composite resource")
	}
	u := &unstructured.Unstructured{Object: in}
	if u.GetAPIVersion() == "" || u.GetKind() == "" || u.GetName() == "" {
		return nil, errors.New("cannot compose: composite resource needs apiVersion, kind and metadata.name")
	}

	cluster := make([]map[string]any, 0, len(observed))
	for i, obj := range observed {
		n, err := normalized(obj)
		if err != nil {
			return nil, errors.Wrapf(err, "cannot compose: cannot read observed resource at index %d", i)
		}
		cluster = append(cluster, n)
	}

	cp := &composer{
		opts:    o,
		comp:    c,
		shared:  shared,
		target:  target,
		envOn:   environmentEnabled(c, o.EnvironmentEnabled),
		cluster: cluster,
		input:   in,
		stored:  jsonobj.DeepCopy(in),
		xr:      fieldpath.Pave(jsonobj.DeepCopy(in)),
	}
	cp.names = newNameGenerator(in, o.NameGenerator)
	return cp, nil
}

// normalized returns o as the Kubernetes decoder would read it
// (pt.NormalizeObject): o itself when it is so already, else a copy. The
// composer only reads its input and the objects in its cluster: a change
// replaces them.
func normalized(o map[string]any) (map[string]any, error) {
	if o != nil && jsonobj.Decoded(o) {
		return o, nil
	}
	return pt.NormalizeObject(o)
}

// environmentEnabled reports whether the v1.17 environment is on.
func environmentEnabled(c *native.Composition, explicit *bool) bool {
	if explicit != nil {
		return *explicit
	}
	if c.Spec.Environment != nil {
		return true
	}
	for _, ps := range c.Spec.PatchSets {
		if usesEnvironment(ps.Patches) {
			return true
		}
	}
	for _, t := range c.Spec.Resources {
		if usesEnvironment(t.Patches) {
			return true
		}
	}
	return false
}

func usesEnvironment(ps []native.Patch) bool {
	for _, p := range ps {
		if p.Type != nil && slices.Contains(environmentPatchTypes, *p.Type) {
			return true
		}
	}
	return false
}

// Patch types by phase. Crossplane compares the raw type string: a
// patch whose type is empty belongs to no phase.
var (
	fromCompositePatchTypes = []pt.PatchType{pt.PatchTypeFromCompositeFieldPath, pt.PatchTypeCombineFromComposite}
	toCompositePatchTypes   = []pt.PatchType{pt.PatchTypeToCompositeFieldPath, pt.PatchTypeCombineToComposite}
	environmentPatchTypes   = []pt.PatchType{
		pt.PatchTypeFromEnvironmentFieldPath, pt.PatchTypeToEnvironmentFieldPath,
		pt.PatchTypeCombineFromEnvironment, pt.PatchTypeCombineToEnvironment,
	}
)

// reconcile runs the composite reconciler from the pause check to the
// status update.
func (c *composer) reconcile() (*render.Outcome, error) {
	if isPaused(c.input) {
		return c.paused(), nil
	}

	if err := c.validate(); err != nil {
		return c.fail(errors.Wrap(err, "refusing to use invalid Composition"))
	}
	if err := c.configure(); err != nil {
		return c.fail(errors.Wrap(err, "cannot configure composite resource"))
	}
	if c.envOn {
		// Errors already say "cannot select environment" or "cannot fetch
		// environment", as the reconciler wraps them.
		if err := c.buildEnvironment(); err != nil {
			return c.fail(err)
		}
	}

	conn, err := c.compose()
	if err != nil {
		return c.fail(errors.Wrap(err, "cannot compose resources"))
	}
	return c.succeed(conn), nil
}

// validate runs the logical validation Crossplane runs before using a
// revision. The v1.17 rules apply when the environment is on, since only
// v1.17 knows the environment patch types.
func (c *composer) validate() error {
	t := c.target
	if c.envOn {
		t = TargetV117
	}
	// The verdict depends on the Composition and t only.
	return c.shared.validation(t, func() error {
		errs := c.comp.Validate(native.LogicalOnly(), native.ForTarget(t))
		if t == TargetV117 {
			spec, err := c.environmentSpec()
			if err != nil {
				return err
			}
			errs = append(errs, spec.Validate()...)
		}
		return errs.ToAggregate()
	})
}

// environmentSpec decodes spec.environment without its patches. It is nil
// without spec.environment, and empty (but not nil, which matters for
// policy.resolution) when spec.environment has only patches.
func (c *composer) environmentSpec() (*environment.Spec, error) {
	e := c.comp.Spec.Environment
	if e == nil {
		return nil, nil
	}
	if len(e.Selection) == 0 {
		return &environment.Spec{}, nil
	}
	s, err := environment.DecodeSpec(e.Selection)
	return s, errors.Wrap(err, "cannot decode spec.environment")
}

// buildEnvironment selects and fetches the environment (docs/semantics/legacy.md#selecting-environmentconfigs, docs/semantics/legacy.md#fetching-and-merging-the-environment).
// Selection writes spec.environmentConfigRefs to the in-memory XR only; the
// update of spec.resourceRefs persists it.
func (c *composer) buildEnvironment() error {
	spec, err := c.environmentSpec()
	if err != nil {
		return err
	}
	env, _, err := spec.Build(c.xr.UnstructuredContent(), c.opts.EnvironmentConfigs)
	if err != nil {
		return err
	}
	c.env = fieldpath.Pave(env)
	return nil
}

// templateName is how messages name template i.
func templateName(t native.Template, i int) string {
	if t.Name != "" {
		return t.Name
	}
	return fmt.Sprintf("resource %d", i+1)
}

// applyName is how apply errors name template i: anonymous templates by
// their bare 1-based index.
func applyName(t native.Template, i int) string {
	if t.Name != "" {
		return t.Name
	}
	return fmt.Sprintf("%d", i+1)
}
