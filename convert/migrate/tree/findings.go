package tree

import (
	"fmt"
	"strings"

	"github.com/xpmigrate/xpmigrate/convert/migrate/finding"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// claimOnlyPaths are XR paths that only legacy XRs bound to a claim have;
// v2-style XRs keep that machinery under spec.crossplane or not at all
// (docs/semantics/conversion.md#constructs-with-no-exact-equivalent N13).
var claimOnlyPaths = []string{"spec.claimRef", "spec.compositionRef", "spec.resourceRefs", "spec.writeConnectionSecretToRef"}

// docFindings returns the v2-readiness findings for one document of a
// file's final content. skipXRWrites suppresses M405 (the converter already
// reported C209 for this Composition).
func docFindings(d DocInfo, skipXRWrites bool) []finding.Diagnostic {
	if d.Obj == nil {
		return nil
	}
	var out []finding.Diagnostic
	add := func(code, sev, p, msg string) {
		f := finding.Diagnostic{Code: code, Severity: sev, Document: d.Index, Line: d.Line, Path: p, Message: msg}
		if IsComposition(d.APIVersion, d.Kind) {
			f.Composition = d.Name
		}
		out = append(out, f)
	}
	prefix := ""
	if d.Item >= 0 {
		prefix = fmt.Sprintf("items[%d].", d.Item)
	}

	// M406: server-populated fields.
	var present []string
	md := jsonobj.Map(d.Obj, "metadata")
	for _, f := range xp.ServerFields {
		if _, ok := md[f]; ok {
			present = append(present, "metadata."+f)
		}
	}
	if _, ok := jsonobj.Map(md, "annotations")[xp.AnnotationLastApplied]; ok {
		present = append(present, "metadata.annotations["+xp.AnnotationLastApplied+"]")
	}
	if _, ok := d.Obj["status"]; ok && (IsComposition(d.APIVersion, d.Kind) || IsXRD(d.APIVersion, d.Kind)) {
		present = append(present, "status")
	}
	if len(present) > 0 {
		add("M406", finding.SeverityInfo, prefix+"metadata",
			fmt.Sprintf("%s %q was exported from a cluster: it carries server-populated fields (%s); remove them before applying it", d.Kind, d.Name, strings.Join(present, ", ")))
	}

	// M403: external secret stores.
	spec := jsonobj.Map(d.Obj, "spec")
	if _, ok := spec["publishConnectionDetailsWithStoreConfigRef"]; ok {
		add("M403", finding.SeverityWarning, prefix+"spec.publishConnectionDetailsWithStoreConfigRef",
			"publishConnectionDetailsWithStoreConfigRef: external secret stores are removed in Crossplane v2; convert with --target v2 once the cluster runs v2, or move to connection Secrets")
	}
	if _, ok := spec["publishConnectionDetailsTo"]; ok {
		add("M403", finding.SeverityWarning, prefix+"spec.publishConnectionDetailsTo",
			"publishConnectionDetailsTo: external secret stores are removed in Crossplane v2; use writeConnectionSecretToRef")
	}

	if !IsComposition(d.APIVersion, d.Kind) {
		return out
	}
	for _, ps := range compositionPatches(d.Obj) {
		p := ps.patch
		typ, _ := p["type"].(string)
		if typ == "" {
			typ = "FromCompositeFieldPath"
		}
		switch typ {
		case "FromCompositeFieldPath", "CombineFromComposite":
			for _, from := range patchSources(p) {
				if cp := claimOnly(from); cp != "" {
					add("M404", finding.SeverityInfo, prefix+ps.path,
						fmt.Sprintf("patch reads %s, which only claim-bound legacy XRs have (%s); v2-style XRs (namespaced or cluster scope) do not", from, cp))
				}
			}
		case "ToCompositeFieldPath", "CombineToComposite":
			if skipXRWrites {
				continue
			}
			to, _ := p["toFieldPath"].(string)
			if to == "" {
				to, _ = p["fromFieldPath"].(string)
			}
			if to != "status" && !strings.HasPrefix(to, "status.") && !strings.HasPrefix(to, "status[") {
				add("M405", finding.SeverityWarning, prefix+ps.path,
					fmt.Sprintf("patch writes XR field %s outside status; Pipeline mode persists only the XR's status, so the write will silently do nothing: move the value under status", to))
			}
		}
	}
	return out
}

// claimOnly returns the claim-only path or label a field path reads, or "".
func claimOnly(from string) string {
	for _, cp := range claimOnlyPaths {
		if from == cp || strings.HasPrefix(from, cp+".") || strings.HasPrefix(from, cp+"[") {
			return cp
		}
	}
	for _, l := range []string{"metadata.labels[" + xp.LabelClaimPrefix, "metadata.labels." + xp.LabelClaimPrefix} {
		if strings.HasPrefix(from, l) {
			return "label " + xp.LabelClaimPrefix + "*"
		}
	}
	return ""
}

// patchSources returns the XR field paths a patch reads.
func patchSources(p map[string]any) []string {
	var out []string
	if f, ok := p["fromFieldPath"].(string); ok && f != "" {
		out = append(out, f)
	}
	for _, v := range jsonobj.List(p, "combine", "variables") {
		vm, _ := v.(map[string]any)
		if f, ok := vm["fromFieldPath"].(string); ok && f != "" {
			out = append(out, f)
		}
	}
	return out
}

// A patchAt is a patch and where it is.
type patchAt struct {
	path  string
	patch map[string]any
}

// compositionPatches returns every patch of a Composition, legacy or
// pipeline (function-patch-and-transform input), with its YAML path.
func compositionPatches(comp map[string]any) []patchAt {
	var out []patchAt
	collect := func(base string, root map[string]any) {
		for i, r := range jsonobj.List(root, "resources") {
			rm, _ := r.(map[string]any)
			for j, p := range jsonobj.List(rm, "patches") {
				if pm, ok := p.(map[string]any); ok {
					out = append(out, patchAt{path: fmt.Sprintf("%sresources[%d].patches[%d]", base, i, j), patch: pm})
				}
			}
		}
		for i, s := range jsonobj.List(root, "patchSets") {
			sm, _ := s.(map[string]any)
			for j, p := range jsonobj.List(sm, "patches") {
				if pm, ok := p.(map[string]any); ok {
					out = append(out, patchAt{path: fmt.Sprintf("%spatchSets[%d].patches[%d]", base, i, j), patch: pm})
				}
			}
		}
		for j, p := range jsonobj.List(root, "environment", "patches") {
			if pm, ok := p.(map[string]any); ok {
				out = append(out, patchAt{path: fmt.Sprintf("%senvironment.patches[%d]", base, j), patch: pm})
			}
		}
	}
	spec := jsonobj.Map(comp, "spec")
	if IsLegacy(comp) {
		collect("spec.", spec)
		return out
	}
	for i, s := range jsonobj.List(spec, "pipeline") {
		sm, _ := s.(map[string]any)
		in := jsonobj.Map(sm, "input")
		if k, _ := in["kind"].(string); k != xp.PTInputKind || xp.Group(jsonobj.AsString(in["apiVersion"])) != xp.GroupPTInput {
			continue
		}
		collect(fmt.Sprintf("spec.pipeline[%d].input.", i), in)
	}
	return out
}
