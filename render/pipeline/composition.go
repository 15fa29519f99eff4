package pipeline

import (
	"encoding/json"
	"sort"

	"github.com/pkg/errors"
)

// The Composition API a pipeline is read from.
const (
	CompositionAPIVersion   = "apiextensions.crossplane.io/v1"
	CompositionKind         = "Composition"
	ModePipeline            = "Pipeline"
	CredentialsSourceSecret = "Secret"
)

// composition is what Compose reads from a Composition.
type composition struct {
	Name string
	Spec compositionSpec
}

type compositionSpec struct {
	CompositeTypeRef struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	} `json:"compositeTypeRef"`
	Mode     *string `json:"mode"`
	Pipeline []step  `json:"pipeline"`
}

// A step is one entry of spec.pipeline.
type step struct {
	Step        string `json:"step"`
	FunctionRef struct {
		Name string `json:"name"`
	} `json:"functionRef"`
	Input       json.RawMessage   `json:"input,omitempty"`
	Credentials []stepCredentials `json:"credentials,omitempty"`
}

type stepCredentials struct {
	Name      string `json:"name"`
	Source    string `json:"source"`
	SecretRef *struct {
		Namespace string `json:"namespace"`
		Name      string `json:"name"`
	} `json:"secretRef,omitempty"`
}

// parseComposition reads a Composition object and runs the checks
// `crossplane render` makes before it runs a pipeline (pipeline spec §3.1,
// render-output spec §1), except Composition validation.
func parseComposition(obj, xr map[string]any) (*composition, error) {
	c := &composition{Name: nestedString(obj, "metadata", "name")}
	if nestedString(obj, "apiVersion") != CompositionAPIVersion || nestedString(obj, "kind") != CompositionKind {
		return nil, errors.Errorf("not a composition: %s/%s", nestedString(obj, "kind"), c.Name)
	}
	b, err := json.Marshal(obj["spec"])
	if err != nil {
		return nil, errors.Wrapf(err, "cannot encode Composition %q spec", c.Name)
	}
	if err := json.Unmarshal(b, &c.Spec); err != nil {
		return nil, errors.Wrapf(err, "cannot decode Composition %q spec", c.Name)
	}

	ref := c.Spec.CompositeTypeRef
	if kind := nestedString(xr, "kind"); ref.Kind != kind {
		return nil, errors.Errorf("composition's compositeTypeRef.kind (%s) does not match XR's kind (%s)", ref.Kind, kind)
	}
	if av := nestedString(xr, "apiVersion"); ref.APIVersion != av {
		return nil, errors.Errorf("composition's compositeTypeRef.apiVersion (%s) does not match XR's apiVersion (%s)", ref.APIVersion, av)
	}

	if err := checkSelector(c.Name, nestedStringMap(obj, "metadata", "labels"), nestedMap(xr, "spec", "compositionSelector", "matchLabels")); err != nil {
		return nil, err
	}

	if c.Spec.Mode == nil || *c.Spec.Mode != ModePipeline {
		return nil, errors.Errorf("render only supports Composition Function pipelines: Composition %q must use spec.mode: %s", c.Name, ModePipeline)
	}
	return c, nil
}

// CheckCompositionSelector checks, as crossplane render does, that the
// Composition comp carries every label the XR's
// spec.compositionSelector.matchLabels asks for.
func CheckCompositionSelector(xr, comp map[string]any) error {
	return checkSelector(nestedString(comp, "metadata", "name"), nestedStringMap(comp, "metadata", "labels"), nestedMap(xr, "spec", "compositionSelector", "matchLabels"))
}

// checkSelector checks that the Composition carries every label the XR's
// compositionSelector asks for.
func checkSelector(name string, have map[string]string, want map[string]any) error {
	keys := make([]string, 0, len(want))
	for k := range want {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		w, _ := want[k].(string)
		got, ok := have[k]
		if !ok {
			return errors.Errorf("composition %q is missing required label %q", name, k)
		}
		if got != w {
			return errors.Errorf("composition %q has incorrect value for label %q: want %q, got %q", name, k, w, got)
		}
	}
	return nil
}

// hasInput reports whether the step has a non-null input.
func (s step) hasInput() bool {
	return len(s.Input) > 0 && string(s.Input) != "null"
}
