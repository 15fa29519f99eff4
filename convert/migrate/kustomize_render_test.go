package migrate

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"

	"github.com/xpmigrate/xpmigrate/convert"
)

// kustomizeBuild renders the kustomization in dir with the kustomize
// library, as `kustomize build` would.
func kustomizeBuild(t *testing.T, dir string) []byte {
	t.Helper()
	k := krusty.MakeKustomizer(krusty.MakeDefaultOptions())
	m, err := k.Run(filesys.MakeFsOnDisk(), dir)
	if err != nil {
		t.Fatalf("kustomize build %s: %v", dir, err)
	}
	out, err := m.AsYaml()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRewrittenOverlayRenders checks, with kustomize itself, that an
// overlay whose patches migrate rewrote renders the converted base to what
// converting the legacy overlay's output gives: the patch lands where the
// converted Composition holds that content.
func TestRewrittenOverlayRenders(t *testing.T) {
	tree := map[string]string{
		"base/composition.yaml": `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: xdbs
spec:
  compositeTypeRef:
    apiVersion: example.org/v1
    kind: XDB
  environment:
    environmentConfigs:
    - type: Reference
      ref:
        name: defaults
  patchSets:
  - name: common
    patches:
    - fromFieldPath: spec.region
      toFieldPath: spec.forProvider.region
  resources:
  - name: db
    base:
      apiVersion: rds.aws.upbound.io/v1beta1
      kind: Instance
      spec:
        forProvider:
          engine: postgres
          size: small
    patches:
    - type: PatchSet
      patchSetName: common
    - fromFieldPath: spec.size
      toFieldPath: spec.forProvider.size
`,
		"base/kustomization.yaml": "resources:\n- composition.yaml\n",
		"overlays/prod/kustomization.yaml": `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
- ../../base
patches:
- target:
    kind: Composition
    name: xdbs
  patch: |
    - op: replace
      path: "/spec/resources/0/base/spec/forProvider/engine"
      value: aurora-postgresql
    - op: replace
      path: /spec/resources/0/patches/1/fromFieldPath
      value: spec.parameters.size
    - op: replace
      path: /spec/patchSets/0/patches/0/toFieldPath
      value: spec.forProvider.regionName
    - op: copy
      from: /spec/resources/0/base/spec/forProvider/size
      path: /spec/resources/0/base/spec/forProvider/storageSize
patchesJson6902:
- target:
    group: apiextensions.crossplane.io
    version: v1
    kind: Composition
    name: xdbs
  path: size.yaml
- target:
    kind: Composition
    name: xdbs
  path: tags.json
`,
		"overlays/prod/tags.json": `[{"op": "add", "path": "/spec/resources/0/base/spec/forProvider/tags", "value": {"env": "prod"}}]` + "\n",
		"overlays/prod/size.yaml": "- op: add\n  path: /spec/resources/0/base/spec/forProvider/class\n  value: db.t3.large\n",
	}
	root := t.TempDir()
	writeTree(t, root, tree)
	legacy := kustomizeBuild(t, root+"/overlays/prod")

	res, err := Run(t.Context(), Options{Root: root, Converter: NewConverter(convert.Options{}), Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if got := findingCodes(res, "M401"); len(got) > 0 {
		t.Fatalf("Run(...): want every patch rewritten, got %v", got)
	}
	after := kustomizeBuild(t, root+"/overlays/prod")

	conv, err := convert.Convert(legacy, convert.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var want, got map[string]any
	if err := yaml.Unmarshal(conv.Output, &want); err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(after, &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("kustomize build of the migrated overlay: -converted legacy overlay, +migrated overlay:\n%s", diff)
	}
}
