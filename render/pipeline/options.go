package pipeline

import (
	"encoding/base64"
	"encoding/json"
	"sort"
	"time"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
)

// A Profile chooses whose behaviour Compose copies where `crossplane render`
// and the real reconciler differ (docs/semantics/pipeline.md#render-and-reconciler-profiles).
type Profile uint8

const (
	// CrankV120 is `crossplane render` v1.20.11: generateName from the XR
	// name, claim labels only from spec.claimRef, no name generation, no
	// garbage collection, XR readiness from composed resources only, no
	// Synced condition, conditions at 2024-01-01T00:00:00Z, no meta.tag. The
	// printed XR is the desired XR, spec and metadata included. The zero
	// value.
	CrankV120 Profile = iota

	// Reconciler is Crossplane v1.20.11's XR reconciler and function
	// composer: generateName from the XR's crossplane.io/composite label,
	// claim labels from the XR's labels, names generated for unnamed
	// composed resources, desired.composite.ready honoured, Synced set,
	// meta.tag set. The printed XR is EffectiveXR.
	Reconciler
)

// String names the profile as the command line does.
func (p Profile) String() string {
	switch p {
	case CrankV120:
		return "crank-v1.20"
	case Reconciler:
		return "reconciler"
	default:
		return "unknown"
	}
}

// FixedConditionTime is the lastTransitionTime `crossplane render` stamps on
// every condition.
const FixedConditionTime = "2024-01-01T00:00:00Z"

func fixedTime() time.Time {
	return time.Date(2024, time.January, 1, 0, 0, 0, 0, time.UTC)
}

// Options configure Compose. The zero value renders like `crossplane render`
// v1.20.11 with no extra resources, context or credentials.
type Options struct {
	// Profile chooses render or reconciler behaviour.
	Profile Profile

	// Dialect is the Crossplane line whose requirements protocol the
	// composer speaks (docs/semantics/pipeline.md#protocol-dialects). crossplane.V1 (also
	// for ""): only requirements.extra_resources is honoured, answered in
	// extra_resources; selectors have no namespace. crossplane.V2:
	// requirements.extra_resources and requirements.resources are both
	// honoured, answered in extra_resources and required_resources;
	// selectors may carry a namespace.
	Dialect crossplane.Target

	// ClusterScoped tells, in dialect V2, whether a composed resource's
	// type is cluster-scoped: Crossplane v2 refuses to compose one for a
	// namespaced XR (a ClusterScopedError). Nil uses KnownClusterScoped.
	// Callers that have the CRDs of the composed types answer from their
	// spec.scope.
	ClusterScoped func(apiVersion, kind string) bool

	// ExtraResources is the pool of "cluster" objects that requirements are
	// answered from (crossplane render --extra-resources).
	ExtraResources []map[string]any

	// Context seeds the function context, by key (crossplane render
	// --context-files and --context-values; see ContextFromJSON).
	Context map[string]any

	// Credentials are the Secrets that steps' credentials name
	// (crossplane render --function-credentials).
	Credentials Secrets

	// Clock stamps conditions in the Reconciler profile. Nil means
	// FixedConditionTime. The CrankV120 profile always uses
	// FixedConditionTime.
	Clock func() time.Time

	// ObservedConnectionDetails are the connection details of observed
	// composed resources, by composition resource name. crossplane render
	// never has any; this is a toolkit-only input (D28, docs/reference/gaps.md#known-gaps).
	ObservedConnectionDetails map[string]map[string][]byte

	// ObservedXRConnectionDetails are the XR's current connection details
	// (toolkit-only, like ObservedConnectionDetails).
	ObservedXRConnectionDetails map[string][]byte

	// Native switches composer mechanisms to the native (mode: Resources)
	// composer's behaviour, one known gap at a time: for counterfactual
	// renders only, never a real Crossplane.
	Native Native
}

// Native switches turn single mechanisms of the function composer into
// what Crossplane's native composer does (see function.Native for the
// function's own). The zero value is Crossplane's function composer.
type Native struct {
	// XRSpecPersisted (D5): what the functions write to the XR's spec and
	// metadata is persisted, as the native composer persisted what
	// ToComposite patches wrote there; Pipeline mode persists only status.
	XRSpecPersisted bool

	// SkippedUnsynced (D23): templates a function lists as skipped (under
	// function.ContextKeySkipped) make the XR unsynced and unready, as the
	// native composer counted a template it did not render.
	SkippedUnsynced bool
}

// ContextKeySkipped is where a counterfactual function lists the
// templates it skipped (function.ContextKeySkipped).
const ContextKeySkipped = "xpmigrate.io/counterfactual-skipped-templates"

func (o Options) now() time.Time {
	if o.Profile == CrankV120 || o.Clock == nil {
		return fixedTime()
	}
	return o.Clock()
}

// A Secret holds function credentials.
type Secret struct {
	Namespace string
	Name      string
	Data      map[string][]byte
}

// Secrets are looked up by namespace and name.
type Secrets []Secret

// Get returns the Secret with the given namespace and name.
func (s Secrets) Get(namespace, name string) (Secret, bool) {
	for _, sec := range s {
		if sec.Namespace == namespace && sec.Name == name {
			return sec, true
		}
	}
	return Secret{}, false
}

// SecretFromObject reads a v1 Secret object: its name, namespace and
// base64-encoded data. Like a client-side decode, it ignores stringData.
func SecretFromObject(obj map[string]any) (Secret, error) {
	s := Secret{
		Namespace: jsonobj.String(obj, "metadata", "namespace"),
		Name:      jsonobj.String(obj, "metadata", "name"),
	}
	if kind := jsonobj.String(obj, "kind"); kind != "Secret" {
		return Secret{}, errors.Errorf("cannot read credentials %q: kind is %q, not Secret", s.Name, kind)
	}
	data, _ := obj["data"].(map[string]any)
	if len(data) == 0 {
		return s, nil
	}
	s.Data = make(map[string][]byte, len(data))
	for k, v := range data {
		str, ok := v.(string)
		if !ok {
			return Secret{}, errors.Errorf("cannot read Secret %q data key %q: not a string", s.Name, k)
		}
		b, err := base64.StdEncoding.DecodeString(str)
		if err != nil {
			return Secret{}, errors.Wrapf(err, "cannot decode Secret %q data key %q", s.Name, k)
		}
		s.Data[k] = b
	}
	return s, nil
}

// ContextFromJSON parses context values given as JSON text, by key, as
// `crossplane render` v1.20 parses --context-files and --context-values.
func ContextFromJSON(values map[string][]byte) (map[string]any, error) {
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	sort.Strings(keys)

	out := make(map[string]any, len(values))
	for _, k := range keys {
		var v any
		if err := json.Unmarshal(values[k], &v); err != nil {
			return nil, errors.Wrapf(err, "cannot unmarshal JSON value for context key %q", k)
		}
		out[k] = v
	}
	return out, nil
}

// observedConnectionDetails returns the connection details of the observed
// composed resource obj, named name in the Composition: those
// ObservedConnectionDetails gives for it, else, in the Reconciler profile,
// the data of the Secret its spec.writeConnectionSecretToRef names, when
// ExtraResources holds it. Crossplane v1.20's function composer reads every
// observed composed resource's connection Secret and sends its data with
// the resource (observed.resources[name].connection_details); crossplane
// render reads none. Crossplane v1.20 reads the Secret in the reference's
// namespace; Crossplane v2 in the resource's own namespace when it is
// namespaced.
func (o Options) observedConnectionDetails(name string, obj map[string]any) map[string][]byte {
	if d, ok := o.ObservedConnectionDetails[name]; ok || o.Profile != Reconciler {
		return d
	}
	ref := jsonobj.Map(obj, "spec", "writeConnectionSecretToRef")
	secret := jsonobj.String(ref, "name")
	if ref == nil || secret == "" {
		return nil
	}
	ns := jsonobj.String(ref, "namespace")
	if own := jsonobj.String(obj, "metadata", "namespace"); own != "" && o.Dialect == crossplane.V2 {
		ns = own
	}
	var out map[string][]byte
	for _, x := range o.ExtraResources {
		if jsonobj.String(x, "apiVersion") != "v1" || jsonobj.String(x, "kind") != "Secret" ||
			jsonobj.String(x, "metadata", "namespace") != ns || jsonobj.String(x, "metadata", "name") != secret {
			continue
		}
		// An unreadable Secret is read as absent, as the legacy composer
		// reads it.
		if s, err := SecretFromObject(x); err == nil {
			out = s.Data
		}
	}
	return out
}
