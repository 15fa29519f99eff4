package engine

import (
	"strings"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/xp"
	"github.com/xpmigrate/xpmigrate/render"
)

// isClaim reports whether o is a claim of the XRD's claim kind.
func isClaim(o, xrd map[string]any) bool {
	ck, _ := jsonobj.LookupString(xrd, "spec", "claimNames", "kind")
	k, _ := o["kind"].(string)
	g, _ := jsonobj.LookupString(xrd, "spec", "group")
	av, _ := o["apiVersion"].(string)
	return ck != "" && k == ck && strings.HasPrefix(av, g+"/")
}

// CompositeOf returns the composite resource Crossplane composes for obj:
// obj itself, or, for a claim of the XRD, the XR the claim controller
// creates (XRFromClaim). Render and verify read a claim through it, and
// `render -x` prints its metadata and spec.
func CompositeOf(obj, xrd map[string]any) (map[string]any, error) {
	if xrd == nil || !isClaim(obj, xrd) {
		return obj, nil
	}
	return XRFromClaim(obj, xrd)
}

// XRFromClaim returns the composite resource Crossplane's claim controller
// would create for claim: the XRD's composite kind at its referenceable
// version, named after the claim, with the claim labels and
// spec.claimRef, and the claim's spec less the claim-only fields.
func XRFromClaim(claim, xrd map[string]any) (map[string]any, error) {
	group, _ := jsonobj.LookupString(xrd, "spec", "group")
	kind, _ := jsonobj.LookupString(xrd, "spec", "names", "kind")
	if group == "" || kind == "" {
		return nil, errors.Errorf("XRD %q: spec.group and spec.names.kind are required", nameOf(xrd))
	}
	version := ""
	vs, _ := jsonobj.Value(xrd, "spec", "versions").([]any)
	for _, v := range vs {
		vm, _ := v.(map[string]any)
		n, _ := vm["name"].(string)
		if ref, _ := vm["referenceable"].(bool); ref {
			version = n
			break
		}
		if version == "" {
			version = n
		}
	}
	if version == "" {
		return nil, errors.Errorf("XRD %q: spec.versions: no version", nameOf(xrd))
	}

	cname := nameOf(claim)
	cns, _ := jsonobj.LookupString(claim, "metadata", "namespace")
	xrName := render.GeneratedName(cname+"-", "", cns, cname, 0)
	spec := map[string]any{}
	if cs, ok := claim["spec"].(map[string]any); ok {
		for k, v := range jsonobj.DeepCopy(cs) {
			switch k {
			case "resourceRef", "writeConnectionSecretToRef", "compositeDeletePolicy":
				continue
			}
			spec[k] = v
		}
	}
	cav, _ := claim["apiVersion"].(string)
	ckind, _ := claim["kind"].(string)
	spec["claimRef"] = map[string]any{"apiVersion": cav, "kind": ckind, "name": cname, "namespace": cns}
	labels := map[string]any{
		xp.LabelClaimName:      cname,
		xp.LabelClaimNamespace: cns,
		xp.LabelComposite:      xrName,
	}
	return map[string]any{
		"apiVersion": group + "/" + version,
		"kind":       kind,
		"metadata":   map[string]any{"name": xrName, "labels": labels},
		"spec":       spec,
	}, nil
}
