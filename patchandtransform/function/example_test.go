package function_test

import (
	"fmt"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/patchandtransform/function"
)

// The engine decodes, validates and converts the input in the function's
// order, reporting errors with the function's prefixes.
func Example() {
	input := map[string]any{
		"apiVersion": "pt.fn.crossplane.io/v1beta1",
		"kind":       "Resources",
		"resources": []any{map[string]any{
			"name": "bucket",
			"base": map[string]any{"apiVersion": "s3.aws.upbound.io/v1beta1", "kind": "Bucket"},
			"patches": []any{map[string]any{
				"fromFieldPath": "spec.region",
				"toFieldPath":   "spec.forProvider.region",
				"policy":        map[string]any{"toFieldPath": "MergeObjects"},
			}},
		}},
	}

	in, err := function.Decode(input)
	if err != nil {
		fmt.Println(errors.Wrap(err, "cannot get Function input"))
		return
	}
	if ferr := in.Validate(); ferr != nil {
		fmt.Println(errors.Wrap(ferr, "invalid Function input"))
		return
	}
	for _, t := range in.Templates() {
		p := t.Patches[0]
		fmt.Println(t.Name, p.Type, *p.FromFieldPath, *p.Policy.MergeOptions.KeepMapValues)
	}

	// Output:
	// bucket FromCompositeFieldPath spec.region true
}

// An absent input fails validation with the message of vector PT-01.
func ExampleResources_Validate() {
	in, _ := function.Decode(nil)
	fmt.Println(errors.Wrap(in.Validate(), "invalid Function input"))

	// Output:
	// invalid Function input: resources: Required value: resources or environment patches are required
}
