package pipeline

import (
	"encoding/json"
	"sort"

	"github.com/pkg/errors"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// The Composition API a pipeline is read from.
const (
	CompositionAPIVersion   = xp.CompositionAPIVersion
	CompositionKind         = "Composition"
	ModePipeline            = "Pipeline"
	CredentialsSourceSecret = "Secret"
)

// composition is what Compose reads from a Composition.
type composition struct {
	Name string
	Spec compositionSpec

	// labels are the Composition's metadata.labels.
	labels map[string]string
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

	// in is the input as the step's requests carry it, and inErr why it
	// cannot be one; both are set once, when the Composition is read, and
	// only when the step has an input. Requests share in, which no Runner
	// may modify.
	in    *structpb.Struct
	inErr error
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
// `crossplane render` makes before it runs a pipeline (docs/semantics/pipeline.md#crossplane-render,
// docs/semantics/render-format.md#input-checks-and-their-order), except Composition validation.
func parseComposition(obj, xr map[string]any) (*composition, error) {
	c, err := decodeComposition(obj)
	if err != nil {
		return nil, err
	}
	if err := c.check(xr); err != nil {
		return nil, err
	}
	return c, nil
}

// decodeComposition reads what Compose needs from a Composition object, as
// encoding/json would read its spec: the checks of parseComposition that do
// not depend on the XR.
func decodeComposition(obj map[string]any) (*composition, error) {
	c := &composition{Name: jsonobj.String(obj, "metadata", "name"), labels: nestedStringMap(obj, "metadata", "labels")}
	if jsonobj.String(obj, "apiVersion") != CompositionAPIVersion || jsonobj.String(obj, "kind") != CompositionKind {
		return nil, errors.Errorf("not a composition: %s/%s", jsonobj.String(obj, "kind"), c.Name)
	}
	spec, ok := specOf(obj["spec"])
	if !ok {
		var err error
		if spec, err = specFromJSON(c.Name, obj["spec"]); err != nil {
			return nil, err
		}
	}
	c.Spec = spec
	return c, nil
}

// specFromJSON reads a Composition's spec through its JSON text.
func specFromJSON(name string, v any) (compositionSpec, error) {
	var spec compositionSpec
	b, err := json.Marshal(v)
	if err != nil {
		return spec, errors.Wrapf(err, "cannot encode Composition %q spec", name)
	}
	if err := json.Unmarshal(b, &spec); err != nil {
		return spec, errors.Wrapf(err, "cannot decode Composition %q spec", name)
	}
	for i := range spec.Pipeline {
		s := &spec.Pipeline[i]
		if s.hasInput() {
			s.in, s.inErr = structFromJSON(s.Input)
		}
	}
	return spec, nil
}

// check runs the checks of parseComposition that depend on the XR.
func (c *composition) check(xr map[string]any) error {
	ref := c.Spec.CompositeTypeRef
	if kind := jsonobj.String(xr, "kind"); ref.Kind != kind {
		return errors.Errorf("composition's compositeTypeRef.kind (%s) does not match XR's kind (%s)", ref.Kind, kind)
	}
	if av := jsonobj.String(xr, "apiVersion"); ref.APIVersion != av {
		return errors.Errorf("composition's compositeTypeRef.apiVersion (%s) does not match XR's apiVersion (%s)", ref.APIVersion, av)
	}

	if err := checkSelector(c.Name, c.labels, jsonobj.Map(xr, "spec", "compositionSelector", "matchLabels")); err != nil {
		return err
	}

	if c.Spec.Mode == nil || *c.Spec.Mode != ModePipeline {
		return errors.Errorf("render only supports Composition Function pipelines: Composition %q must use spec.mode: %s", c.Name, ModePipeline)
	}
	return nil
}

// CheckCompositionSelector checks, as crossplane render does, that the
// Composition comp carries every label the XR's
// spec.compositionSelector.matchLabels asks for.
func CheckCompositionSelector(xr, comp map[string]any) error {
	return checkSelector(jsonobj.String(comp, "metadata", "name"), nestedStringMap(comp, "metadata", "labels"), jsonobj.Map(xr, "spec", "compositionSelector", "matchLabels"))
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
