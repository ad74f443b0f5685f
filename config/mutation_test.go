package config

import "testing"

// A port is 1 to 65535: 0 and 65536 are refused, the edges accepted.
func TestCheckEndpointPortEdges(t *testing.T) {
	for endpoint, ok := range map[string]bool{
		"http://127.0.0.1:0":     false,
		"http://127.0.0.1:65536": false,
		"http://127.0.0.1:1":     true,
		"http://127.0.0.1:65535": true,
		"http://127.0.0.1:x":     false,
		"http://127.0.0.1":       true,
	} {
		if err := CheckEndpoint(endpoint); (err == nil) != ok {
			t.Errorf("CheckEndpoint(%q) = %v, want accepted %v", endpoint, err, ok)
		}
	}
}
