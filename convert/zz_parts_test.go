package convert

import (
	"bytes"
	"testing"

	yaml "go.yaml.in/yaml/v3"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/xpmigrate/xpmigrate/convert/yamledit"
)

func BenchmarkPartV3(b *testing.B) {
	src := []byte(generatedComposition(7, 20))
	for b.Loop() {
		var n yaml.Node
		_ = yaml.NewDecoder(bytes.NewReader(src)).Decode(&n)
	}
}
func BenchmarkPartParse(b *testing.B) {
	src := []byte(generatedComposition(7, 20))
	for b.Loop() {
		_, _ = yamledit.Parse(src)
	}
}
func BenchmarkPartV2(b *testing.B) {
	src := []byte(generatedComposition(7, 20))
	for b.Loop() {
		_, _ = sigsyaml.YAMLToJSON(src)
	}
}
func BenchmarkPartText(b *testing.B) {
	src := []byte(generatedComposition(7, 20))
	for b.Loop() {
		_, _ = yamledit.TextJSON(src)
	}
}
