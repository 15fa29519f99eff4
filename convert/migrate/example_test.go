package migrate_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/convert/migrate"
)

// Migrate a repository in place: its legacy Composition becomes a Pipeline
// Composition, verified with the XR example beside it, and the Function it
// uses is installed by a pinned manifest beside it.
func ExampleRun() {
	dir, err := os.MkdirTemp("", "xpmigrate-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	files := map[string]string{
		"apis/composition.yaml": `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: buckets
spec:
  compositeTypeRef:
    apiVersion: example.org/v1
    kind: XBucket
  resources:
  - name: bucket
    base:
      apiVersion: s3.aws.upbound.io/v1beta1
      kind: Bucket
    patches:
    - fromFieldPath: spec.region
      toFieldPath: spec.forProvider.region
`,
		"examples/xr.yaml": `apiVersion: example.org/v1
kind: XBucket
metadata:
  name: example
spec:
  region: eu-west-1
`,
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			fmt.Println(err)
			return
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			fmt.Println(err)
			return
		}
	}

	res, err := migrate.Run(context.Background(), migrate.Options{
		Root:      dir,
		Converter: migrate.NewConverter(convert.Options{}),
		Verifier:  migrate.NewVerifier(false),
		Verify:    true,
		// Add the Function manifests the converted Compositions need.
		WireFunctions: true,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := migrate.WriteSummary(os.Stdout, res); err != nil {
		fmt.Println(err)
	}
	// Output:
	// files: 3: 2 converted, 1 unchanged, 0 skipped, 0 failed (written in place)
	// compositions: 1 (1 legacy): 1 converted, 0 failed
	// verification: 1 equivalent, 0 with intended changes, 0 with known gaps, 0 different, 0 errors, 0 unverified; 0 failing
	// 1 Composition converted: safe to merge? yes
}
