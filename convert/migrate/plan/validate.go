package plan

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/pkg/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/internal/cluster"
	"github.com/xpmigrate/xpmigrate/internal/crdschema"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/xcrd"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// A CRDSource finds the CustomResourceDefinition that serves a kind: the
// cluster's (get only), an export's, or a list given.
type CRDSource interface {
	// CRD returns the decoded CRD of group and kind, or nil and why not.
	CRD(ctx context.Context, group, kind string) (map[string]any, string, error)
}

// CRD reads the CRD of group and kind from the cluster with a get request.
func (c Cluster) CRD(ctx context.Context, group, kind string) (map[string]any, string, error) {
	u, st, err := c.R.CRD(ctx, group, kind)
	switch {
	case err != nil:
		return nil, "", err
	case u != nil:
		return u.Object, "", nil
	case st == cluster.Forbidden:
		return nil, "reading its CustomResourceDefinition is forbidden (get customresourcedefinitions.apiextensions.k8s.io)", nil
	case st == cluster.Unserved:
		return nil, "the cluster does not serve it from a CustomResourceDefinition", nil
	}
	return nil, "the cluster has no CustomResourceDefinition of it", nil
}

// CRD returns the exported CRD of group and kind.
func (m *Manifests) CRD(_ context.Context, group, kind string) (map[string]any, string, error) {
	if crd := CRDs(m.objs).find(group, kind); crd != nil {
		return crd, "", nil
	}
	return nil, "the export holds no CustomResourceDefinition of it", nil
}

// CRDs are CustomResourceDefinitions given (decoded).
type CRDs []map[string]any

// CRD returns the one of group and kind.
func (l CRDs) CRD(_ context.Context, group, kind string) (map[string]any, string, error) {
	if crd := l.find(group, kind); crd != nil {
		return crd, "", nil
	}
	return nil, "no CustomResourceDefinition given serves it", nil
}

func (l CRDs) find(group, kind string) map[string]any {
	for _, o := range l {
		if o["kind"] != "CustomResourceDefinition" || xp.Group(jsonobj.AsString(o["apiVersion"])) != "apiextensions.k8s.io" {
			continue
		}
		if jsonobj.String(o, "spec", "group") == group && jsonobj.String(o, "spec", "names", "kind") == kind {
			return o
		}
	}
	return nil
}

// Schemas validate objects against the CRDs of their kinds, found through
// sources in order (the first that has a kind's CRD gives it), each CRD
// compiled once.
type Schemas struct {
	sources []CRDSource
	s       *crdschema.Schemas
	// missing is why no source has a kind's CRD, by group|kind.
	missing map[string]string
}

// NewSchemas looks CRDs up in sources, in order.
func NewSchemas(sources ...CRDSource) *Schemas {
	return &Schemas{sources: sources, s: crdschema.New(), missing: map[string]string{}}
}

// PlanSchemas are the sources of the plan's validation: the cluster's or
// the export's CRDs, then the provider CRDs given, then the XR CRDs
// Crossplane v2 derives from the v2 XRDs of d, then Crossplane v2.3.4's
// CRDs of XRDs and Compositions.
func PlanSchemas(live CRDSource, providerCRDs []map[string]any, d Definitions) (*Schemas, error) {
	var srcs []CRDSource
	if live != nil {
		srcs = append(srcs, live)
	}
	srcs = append(srcs, CRDs(providerCRDs))
	var derived CRDs
	for _, x := range d.XRDs {
		crd, err := xcrd.CompositeCRDV2(&unstructured.Unstructured{Object: x})
		if err != nil {
			// The XRD's own validation names the defect.
			continue
		}
		derived = append(derived, crd.Object)
	}
	cp, err := xcrd.CrossplaneV2()
	if err != nil {
		return nil, err
	}
	return NewSchemas(append(srcs, derived, CRDs(cp))...), nil
}

// load finds and compiles the CRD of obj's kind; it reports false (and
// records why) when no source has one.
func (s *Schemas) load(ctx context.Context, obj map[string]any) (bool, error) {
	g, _ := xp.SplitAPIVersion(jsonobj.AsString(obj["apiVersion"]))
	k := jsonobj.AsString(obj["kind"])
	if s.s.Has(g, k) {
		return true, nil
	}
	if _, ok := s.missing[g+"|"+k]; ok {
		return false, nil
	}
	var why []string
	for _, src := range s.sources {
		crd, reason, err := src.CRD(ctx, g, k)
		if err != nil {
			return false, errors.Wrapf(err, "cannot read the CustomResourceDefinition of %s %s", jsonobj.AsString(obj["apiVersion"]), k)
		}
		if crd == nil {
			why = append(why, reason)
			continue
		}
		if _, err := s.s.Add(crd); err != nil {
			return false, err
		}
		return true, nil
	}
	s.missing[g+"|"+k] = strings.Join(why, "; ")
	return false, nil
}

// Validate returns what the API server would refuse in obj applied over
// live (nil: obj is created), each "<field>: <reason>"; known is false
// when no source has the CRD of obj's kind at its version (why says why).
func (s *Schemas) Validate(ctx context.Context, obj, live map[string]any) (errs []string, known bool, why string, err error) {
	ok, err := s.load(ctx, obj)
	if err != nil {
		return nil, false, "", err
	}
	g, _ := xp.SplitAPIVersion(jsonobj.AsString(obj["apiVersion"]))
	if !ok {
		return nil, false, s.missing[g+"|"+jsonobj.AsString(obj["kind"])], nil
	}
	merged, old := obj, map[string]any(nil)
	if live != nil {
		old = clean(live)
		merged = jsonobj.MergePatch(clean(live), obj)
	}
	errs, err = s.s.Validate(ctx, merged, old)
	if errors.Is(err, crdschema.ErrUnknownKind) {
		return nil, false, fmt.Sprintf("its CustomResourceDefinition %s does not serve version %s", s.s.CRD(g, jsonobj.AsString(obj["kind"])), jsonobj.AsString(obj["apiVersion"])), nil
	}
	return errs, err == nil, "", err
}

// providerConfigKind gives a twin's providerConfigRef the kind namespaced
// managed resources require when the live object's reference (the v1 API
// server's default, {name: default}) has none and the mapping set none:
// explicit (--provider-config-kind) when given, else the kind of the
// providerConfigRef default of the twin's CRD, else ClusterProviderConfig.
// A CRD whose providerConfigRef declares no kind is left alone.
func (s *Schemas) providerConfigKind(ctx context.Context, twin map[string]any, explicit string) error {
	ref, ok := jsonobj.Value(twin, "spec", "providerConfigRef").(map[string]any)
	if !ok || ref["kind"] != nil {
		return nil
	}
	kind := explicit
	known, err := s.load(ctx, twin)
	if err != nil {
		return err
	}
	if known {
		if declared, err := s.s.Declares(twin, "spec", "providerConfigRef", "kind"); err == nil && !declared {
			return nil
		}
		if kind == "" {
			probe := jsonobj.DeepCopy(twin)
			if spec, ok := probe["spec"].(map[string]any); ok {
				delete(spec, "providerConfigRef")
			}
			if d, err := s.s.Default(probe); err == nil {
				kind = jsonobj.String(d, "spec", "providerConfigRef", "kind")
			}
		}
	}
	if kind == "" {
		kind = convert.KindClusterProviderConfig
	}
	ref["kind"] = kind
	return nil
}

// validateSteps validates, in order, every object x's steps apply, each
// merged over what exists when its step runs (the legacy objects of c,
// then what earlier steps applied), and the v2 definitions it needs
// (defs: its v2 XRD and Composition). It returns the errors, each naming
// the file, the object and the field, and notes the kinds it could not
// validate.
func (x *XR) validateSteps(ctx context.Context, s *Schemas, c Composite, defs []map[string]any) ([]string, error) {
	world := NewManifests()
	for _, o := range []map[string]any{c.Claim, c.XR} {
		if o != nil {
			world.add(clean(o))
		}
	}
	for _, cd := range c.Composed {
		if cd.Object != nil {
			world.add(clean(cd.Object))
		}
	}
	var errs []string
	unknown := map[string]string{}
	check := func(file string, obj, live map[string]any) error {
		fe, known, why, err := s.Validate(ctx, obj, live)
		if err != nil {
			return err
		}
		r := refOf(obj)
		if !known {
			unknown[r.APIVersion+" "+r.Kind] = why
			return nil
		}
		for _, e := range fe {
			errs = append(errs, fmt.Sprintf("%s: %s would be refused: %s", file, r, e))
		}
		return nil
	}
	for _, d := range defs {
		if err := check("definitions.yaml", d, nil); err != nil {
			return nil, err
		}
	}
	for _, st := range x.Steps {
		for _, a := range st.Actions {
			if a.Verb != VerbApply {
				continue // annotate and delete change no field a schema validates
			}
			for _, obj := range st.objects[a.File] {
				r := refOf(obj)
				live, _, _ := world.Get(ctx, r.APIVersion, r.Kind, r.Namespace, r.Name)
				if err := check(a.File, obj, live); err != nil {
					return nil, err
				}
				if live != nil {
					jsonobj.MergePatch(live, obj)
				} else {
					world.add(jsonobj.DeepCopy(obj))
				}
			}
		}
	}
	kinds := make([]string, 0, len(unknown))
	for k := range unknown {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		x.Notes = append(x.Notes, fmt.Sprintf("%s was not validated before it is applied: %s (give its CRD with --provider-crds, or plan with --cluster)", k, unknown[k]))
	}
	return errs, nil
}
