package xcrd

import (
	"embed"
	"path"

	"github.com/pkg/errors"
	"sigs.k8s.io/yaml"
)

// CrossplaneV2Version is the Crossplane release of CrossplaneV2's CRDs.
const CrossplaneV2Version = "v2.3.4"

//go:embed crossplane-v2.3.4/*.yaml
var crossplaneV2CRDs embed.FS

// CrossplaneV2 returns Crossplane v2.3.4's CompositeResourceDefinition and
// Composition CRDs (decoded), as crossplane-v2.3.4/README.md says.
func CrossplaneV2() ([]map[string]any, error) {
	dir := "crossplane-" + CrossplaneV2Version
	entries, err := crossplaneV2CRDs.ReadDir(dir)
	if err != nil {
		return nil, errors.Wrap(err, "cannot read the embedded Crossplane CRDs")
	}
	out := make([]map[string]any, 0, len(entries))
	for _, e := range entries {
		b, err := crossplaneV2CRDs.ReadFile(path.Join(dir, e.Name()))
		if err != nil {
			return nil, errors.Wrapf(err, "cannot read %q", e.Name())
		}
		var crd map[string]any
		if err := yaml.Unmarshal(b, &crd); err != nil {
			return nil, errors.Wrapf(err, "cannot parse %q", e.Name())
		}
		out = append(out, crd)
	}
	return out, nil
}
