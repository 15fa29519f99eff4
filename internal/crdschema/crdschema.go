package crdschema

import (
	"context"
	"errors"
	"sort"
	"strings"

	pkgerrors "github.com/pkg/errors"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	structurallisttype "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	metavalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/common"
)

// ErrUnknownKind is returned by Validate when no CustomResourceDefinition
// added serves the object's kind at its version.
var ErrUnknownKind = errors.New("no CustomResourceDefinition serves the kind at this version")

// A version is one served version of a CRD, ready to validate.
type version struct {
	crd        string
	namespaced bool
	preserve   bool
	structural *structuralschema.Structural
	validator  apiservervalidation.SchemaValidator
	cel        *cel.Validator
}

// Schemas are the schemas of the CRDs added, by group, kind and version.
// The first CRD added for a kind wins.
type Schemas struct {
	versions map[string]*version
	kinds    map[string]string
}

// New returns an empty set of schemas.
func New() *Schemas {
	return &Schemas{versions: map[string]*version{}, kinds: map[string]string{}}
}

func key(group, kind, v string) string { return group + "|" + kind + "|" + v }

// Add compiles every served version of crd, a decoded
// apiextensions.k8s.io/v1 CustomResourceDefinition. A kind already added
// is left as it was (Add reports false). A schema the API server would
// not accept is an error naming the CRD and the version.
func (s *Schemas) Add(crd map[string]any) (bool, error) {
	c := &apiextensionsv1.CustomResourceDefinition{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(crd, c); err != nil {
		return false, pkgerrors.Wrapf(err, "cannot decode CustomResourceDefinition %q", name(crd))
	}
	gk := c.Spec.Group + "|" + c.Spec.Names.Kind
	if _, ok := s.kinds[gk]; ok {
		return false, nil
	}
	vs := map[string]*version{}
	for _, v := range c.Spec.Versions {
		if !v.Served {
			continue
		}
		cv := &version{crd: c.Name, namespaced: c.Spec.Scope != apiextensionsv1.ClusterScoped, preserve: c.Spec.PreserveUnknownFields}
		var props *apiextensions.JSONSchemaProps
		if v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
			props = &apiextensions.JSONSchemaProps{}
			if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(v.Schema.OpenAPIV3Schema, props, nil); err != nil {
				return false, pkgerrors.Wrapf(err, "cannot read the schema of CustomResourceDefinition %q version %s", c.Name, v.Name)
			}
			st, err := structuralschema.NewStructural(props)
			if err != nil {
				return false, pkgerrors.Wrapf(err, "the schema of CustomResourceDefinition %q version %s is not structural", c.Name, v.Name)
			}
			st = st.DeepCopy()
			if err := structuraldefaulting.PruneDefaults(st); err != nil {
				return false, pkgerrors.Wrapf(err, "cannot prune the defaults of CustomResourceDefinition %q version %s", c.Name, v.Name)
			}
			cv.structural = st
			cv.cel = cel.NewValidator(st, true, celconfig.PerCallLimit)
		}
		val, _, err := apiservervalidation.NewSchemaValidator(props)
		if err != nil {
			return false, pkgerrors.Wrapf(err, "cannot compile the schema of CustomResourceDefinition %q version %s", c.Name, v.Name)
		}
		cv.validator = val
		vs[v.Name] = cv
	}
	served := make([]string, 0, len(vs))
	for n, v := range vs {
		s.versions[key(c.Spec.Group, c.Spec.Names.Kind, n)] = v
		served = append(served, n)
	}
	sort.Strings(served)
	s.kinds[gk] = c.Name
	return true, nil
}

// Has reports whether a CRD of group and kind was added (served at any
// version).
func (s *Schemas) Has(group, kind string) bool {
	_, ok := s.kinds[group+"|"+kind]
	return ok
}

// CRD is the name of the CRD of group and kind, empty when none was added.
func (s *Schemas) CRD(group, kind string) string { return s.kinds[group+"|"+kind] }

// Validate returns what the API server would refuse in obj, each as
// "<field path>: <reason>", sorted; nothing when it would accept it. old
// is the live object a server-side apply updates (nil for a create): obj
// is then validated as an update, with ratcheting. obj and old are not
// changed. Without a CRD of obj's kind at its version, Validate returns
// ErrUnknownKind.
func (s *Schemas) Validate(ctx context.Context, obj, old map[string]any) ([]string, error) {
	v, err := s.version(obj)
	if err != nil {
		return nil, err
	}
	u := &unstructured.Unstructured{Object: runtime.DeepCopyJSON(obj)}
	var errs field.ErrorList
	var unknown []string
	for _, p := range v.store(u.Object) {
		// kubectl's strict field validation refuses it.
		unknown = append(unknown, p+": field not declared in schema")
	}
	errs = append(errs, metavalidation.ValidateObjectMetaAccessor(u, v.namespaced, metavalidation.NameIsDNSSubdomain, field.NewPath("metadata"))...)
	var o *unstructured.Unstructured
	var opts []apiservervalidation.ValidationOption
	var celOpts []cel.Option
	if old != nil {
		o = &unstructured.Unstructured{Object: runtime.DeepCopyJSON(old)}
		if v.structural != nil {
			structuraldefaulting.Default(o.Object, v.structural)
			corr := common.NewCorrelatedObject(u.Object, o.Object, &model.Structural{Structural: v.structural})
			opts = append(opts, apiservervalidation.WithRatcheting(corr))
			celOpts = append(celOpts, cel.WithRatcheting(corr))
		}
		errs = append(errs, apiservervalidation.ValidateCustomResourceUpdate(nil, u.Object, o.Object, v.validator, opts...)...)
	} else {
		errs = append(errs, apiservervalidation.ValidateCustomResource(nil, u.Object, v.validator)...)
	}
	if v.structural != nil {
		errs = append(errs, schemaobjectmeta.Validate(nil, u.Object, v.structural, false)...)
		if o == nil || len(structurallisttype.ValidateListSetsAndMaps(nil, v.structural, o.Object)) == 0 {
			errs = append(errs, structurallisttype.ValidateListSetsAndMaps(nil, v.structural, u.Object)...)
		}
		// The API server runs the CEL rules only when nothing above refused
		// the object (a rule may assume the schema holds).
		if len(errs) == 0 && v.cel != nil {
			var oldObj any
			if o != nil {
				oldObj = o.Object
			}
			cerrs, _ := v.cel.Validate(ctx, nil, v.structural, u.Object, oldObj, celconfig.RuntimeCELCostBudget, celOpts...)
			errs = append(errs, cerrs...)
		}
	}
	out := unknown
	for _, e := range errs {
		out = append(out, describe(e))
	}
	sort.Strings(out)
	return out, nil
}

// describe is "<field>: <reason>", without the bad value where it is
// an object or a list (the API server quotes it whole).
func describe(e *field.Error) string {
	switch e.BadValue.(type) {
	case map[string]any, []any:
		e.BadValue = field.OmitValueType{}
	}
	return e.Field + ": " + e.ErrorBody()
}

func name(o map[string]any) string {
	md, _ := o["metadata"].(map[string]any)
	n, _ := md["name"].(string)
	return n
}

func splitAPIVersion(av string) (string, string) {
	if g, v, ok := strings.Cut(av, "/"); ok {
		return g, v
	}
	return "", av
}

// Default returns a copy of obj with the defaults of its CRD's schema set,
// as the API server sets them, or ErrUnknownKind.
func (s *Schemas) Default(obj map[string]any) (map[string]any, error) {
	v, err := s.version(obj)
	if err != nil {
		return nil, err
	}
	out := runtime.DeepCopyJSON(obj)
	if v.structural != nil {
		structuraldefaulting.Default(out, v.structural)
	}
	return out, nil
}

// Declares reports whether the schema of obj's kind declares the field at
// path (a field under x-kubernetes-preserve-unknown-fields counts), or
// ErrUnknownKind.
func (s *Schemas) Declares(obj map[string]any, path ...string) (bool, error) {
	v, err := s.version(obj)
	if err != nil {
		return false, err
	}
	if v.preserve || v.structural == nil {
		return true, nil
	}
	st := v.structural
	for _, p := range path {
		if st.XPreserveUnknownFields {
			return true, nil
		}
		next, ok := st.Properties[p]
		if !ok {
			if st.AdditionalProperties != nil && st.AdditionalProperties.Structural != nil {
				st = st.AdditionalProperties.Structural
				continue
			}
			return false, nil
		}
		st = &next
	}
	return true, nil
}

func (s *Schemas) version(obj map[string]any) (*version, error) {
	av, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	group, ver := splitAPIVersion(av)
	v, ok := s.versions[key(group, kind, ver)]
	if !ok {
		return nil, pkgerrors.Wrapf(ErrUnknownKind, "%s %s", av, kind)
	}
	return v, nil
}

// Stored returns obj as the API server would store it, without
// validating it: its CRD's defaults applied, the fields its schema does not
// declare pruned, and the null values of fields that are not nullable
// dropped. obj is not changed. Without a CRD of obj's kind at its version,
// Stored returns ErrUnknownKind.
func (s *Schemas) Stored(obj map[string]any) (map[string]any, error) {
	v, err := s.version(obj)
	if err != nil {
		return nil, err
	}
	out := runtime.DeepCopyJSON(obj)
	v.store(out)
	return out, nil
}

// store does to obj, in place, what the API server does before it
// validates and stores an object of this version: the schema's defaults,
// pruning, and dropping the nulls of fields that are not nullable. It
// returns the paths of the pruned fields.
func (v *version) store(obj map[string]any) []string {
	if v.preserve || v.structural == nil {
		return nil
	}
	structuraldefaulting.Default(obj, v.structural)
	pruned := structuralpruning.PruneWithOptions(obj, v.structural, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})
	structuraldefaulting.PruneNonNullableNullsWithoutDefaults(obj, v.structural)
	return pruned
}
