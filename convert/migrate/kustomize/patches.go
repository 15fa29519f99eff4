package kustomize

import (
	"fmt"
	"path"
	"strings"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// IsKustomization reports whether a document is a kustomization: a
// document (not an item of a List: item is -1) of a file named
// kustomization.yaml (.yml, Kustomization), or a document of kind
// Kustomization in the kustomize.config.k8s.io group.
func IsKustomization(rel string, item int, apiVersion, kind string) bool {
	switch path.Base(rel) {
	case "kustomization.yaml", "kustomization.yml", "Kustomization":
		return item < 0
	}
	return kind == "Kustomization" && xp.Group(apiVersion) == "kustomize.config.k8s.io"
}

// CompositionPaths are the parts of a legacy Composition that conversion
// moves into the pipeline; a patch into them no longer applies.
var CompositionPaths = []string{"resources", "patchSets", "environment"}

// A Patch is one patch entry of a kustomization.
type Patch struct {
	Path   string // file, relative to the kustomization
	Inline string // inline patch text
	// TargetKind and TargetName select what a JSON 6902 patch (or a targeted patch) applies
	// to: kind and name, empty when unset.
	TargetKind, TargetName string
	json6902               bool
	// At locates the entry in the kustomization, such as patches[1].
	At string
}

// Patches lists the patch entries of kustomization k, in the order
// patchesStrategicMerge, patchesJson6902, patches; entries with neither a
// path nor an inline patch are left out.
func Patches(k map[string]any) []Patch {
	var out []Patch
	for i, v := range jsonobj.List(k, "patchesStrategicMerge") {
		s, _ := v.(string)
		if s == "" {
			continue
		}
		at := fmt.Sprintf("patchesStrategicMerge[%d]", i)
		if strings.Contains(s, "\n") || strings.Contains(s, ":") && !strings.HasSuffix(s, ".yaml") && !strings.HasSuffix(s, ".yml") {
			out = append(out, Patch{Inline: s, At: at})
			continue
		}
		out = append(out, Patch{Path: s, At: at})
	}
	for _, field := range []string{"patchesJson6902", "patches"} {
		for i, v := range jsonobj.List(k, field) {
			m, _ := v.(map[string]any)
			if m == nil {
				continue
			}
			p := Patch{json6902: field == "patchesJson6902", At: fmt.Sprintf("%s[%d]", field, i)}
			p.Path, _ = m["path"].(string)
			p.Inline, _ = m["patch"].(string)
			p.TargetKind = jsonobj.String(m, "target", "kind")
			p.TargetName = jsonobj.String(m, "target", "name")
			if p.Path == "" && p.Inline == "" {
				continue
			}
			out = append(out, p)
		}
	}
	return out
}
