# The two commands: `make demo` and `make test`. Everything they need is
# installed by scripts/dynamodb-local.sh (DynamoDB Local via npm, Java from
# Debian if missing); Go modules come through the module proxy.
BIN := bin/dynascope

.PHONY: build demo test vet local-start local-stop clean

build:
	go build -o $(BIN) .

demo: build
	scripts/dynamodb-local.sh install
	$(BIN) demo

test:
	scripts/test.sh

vet:
	go vet ./...

local-start:
	scripts/dynamodb-local.sh start

local-stop:
	scripts/dynamodb-local.sh stop

clean:
	rm -rf bin
