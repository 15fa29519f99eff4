package render

import (
	"encoding/base64"
	"io"
	"sort"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// AnnotationCompositionResourceName names a composed resource's template.
const AnnotationCompositionResourceName = xp.AnnotationCompositionResourceName

// PrintOptions select the optional documents, as crossplane render's flags
// do.
type PrintOptions struct {
	// IncludeResults appends a Result document per non-fatal result (-r).
	IncludeResults bool
	// IncludeContext appends the final context as a Context document (-c).
	IncludeContext bool
	// IncludeConnectionDetails appends the XR's connection details as the
	// Secret Crossplane would publish.
	IncludeConnectionDetails bool
}

// Print writes o as `crossplane render` v1.20.11 does: a YAML stream whose
// every document is preceded by `---`, keys sorted, emitted through
// sigs.k8s.io/yaml. The order is the XR, the composed resources sorted by
// composition resource name, then results, context and connection details.
func Print(w io.Writer, o *Outcome, opts PrintOptions) error {
	docs := []any{o.XR}
	for _, cd := range SortedComposed(o.Composed) {
		docs = append(docs, cd.Desired)
	}
	if opts.IncludeResults {
		for _, r := range o.Results {
			docs = append(docs, map[string]any{
				"apiVersion": "render.crossplane.io/v1beta1",
				"kind":       "Result",
				"step":       r.Step,
				"severity":   r.Severity,
				"message":    r.Message,
			})
		}
	}
	if opts.IncludeContext {
		fields := o.Context
		if fields == nil {
			fields = map[string]any{}
		}
		docs = append(docs, map[string]any{
			"apiVersion": "render.crossplane.io/v1beta1",
			"kind":       "Context",
			"fields":     fields,
		})
	}
	if opts.IncludeConnectionDetails {
		docs = append(docs, ConnectionSecret(o))
	}
	for i, d := range docs {
		b, err := MarshalYAML(d)
		if err != nil {
			return errors.Wrapf(err, "cannot print document %d", i+1)
		}
		if _, err := io.WriteString(w, "---\n"); err != nil {
			return err
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// SortedComposed returns the rendered composed resources sorted by their
// composition resource name annotation, as crossplane render prints them.
// Resources that were not rendered are left out.
func SortedComposed(cds []ComposedResource) []ComposedResource {
	out := make([]ComposedResource, 0, len(cds))
	for _, cd := range cds {
		if cd.Rendered && cd.Desired != nil {
			out = append(out, cd)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		return jsonobj.Annotation(out[i].Desired, AnnotationCompositionResourceName) < jsonobj.Annotation(out[j].Desired, AnnotationCompositionResourceName)
	})
	return out
}

// ConnectionSecret returns the XR's connection details as the Secret
// Crossplane would publish them: named by the XR's
// spec.writeConnectionSecretToRef, or after the XR when it has none.
func ConnectionSecret(o *Outcome) map[string]any {
	md := map[string]any{}
	xr := o.EffectiveXR
	if xr == nil {
		xr = o.XR
	}
	if ref, ok := jsonobj.Value(xr, "spec", "writeConnectionSecretToRef").(map[string]any); ok {
		if n, ok := ref["name"].(string); ok {
			md["name"] = n
		}
		if ns, ok := ref["namespace"].(string); ok {
			md["namespace"] = ns
		}
	}
	if _, ok := md["name"]; !ok {
		if n, ok := jsonobj.Value(xr, "metadata", "name").(string); ok {
			md["name"] = n
		}
	}
	data := map[string]any{}
	for k, v := range o.ConnectionDetails {
		data[k] = base64.StdEncoding.EncodeToString(v)
	}
	return map[string]any{
		"apiVersion": "v1",
		"kind":       "Secret",
		"metadata":   md,
		"type":       xp.SecretTypeConnection,
		"data":       data,
	}
}

// IncludeFullXR replaces the printed XR's spec and whole metadata with the
// input XR's, as crossplane render -x does. The input XR must have a spec.
func IncludeFullXR(o *Outcome, input map[string]any) error {
	spec, ok := input["spec"]
	if !ok {
		return errors.New("cannot get composite resource spec")
	}
	if o.XR == nil {
		o.XR = map[string]any{}
	}
	o.XR["spec"] = spec
	if md, ok := input["metadata"]; ok {
		o.XR["metadata"] = md
	}
	return nil
}
