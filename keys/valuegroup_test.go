package keys

import "testing"

// ValueGroupName tells the names value groups get (shapes, numbers,
// binary, and those UniqueNames numbers) from a label type's.
func TestValueGroupName(t *testing.T) {
	for name, want := range map[string]bool{
		ShapeTimestamp: true, ShapeUUID: true, NumberEntity: true, BinaryEntity: true, ShapeVersion: true, "hex id (2)": true,
		"ORDER": false, "timestamps": false, "hex id (x)": false, "ORDER (2)": false, "": false,
	} {
		if got := ValueGroupName(name); got != want {
			t.Errorf("ValueGroupName(%q) = %v, want %v", name, got, want)
		}
	}
}
