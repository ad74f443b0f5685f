package demodata

import (
	"strconv"
	"time"

	"dynascope/dynamo"
)

// TrafficInterval is the pause between two writes of the demo's
// traffic: a few a second, slow enough to read as they arrive.
const TrafficInterval = 400 * time.Millisecond

// trafficWrite is the demo application's step-th write (from 0), in a
// cycle of three: a new order for CUST#42, that order shipped (its status
// changes and it leaves the warehouse queue in GSI1), and a line item added
// to it. id names the orders of this run ("T" and a number); day is the
// orders' date.
func trafficWrite(step int, id int, day time.Time) dynamo.Item {
	order := "T" + strconv.Itoa(id+step/3)
	date := day.Format(time.DateOnly)
	total := 1500 + (step/3*731)%9000
	it := dynamo.Item{
		"PK": demoS(Partition), "SK": demoS("ORDER#" + date + "#" + order),
		"orderId": demoS(order), "total": demoMoney(total), "itemCount": demoInt(1),
	}
	switch step % 3 {
	case 0:
		it["status"] = demoS("OPEN")
		it["GSI1PK"] = demoS("WH#" + strconv.Itoa(1+step/3%demoWarehouses))
		it["GSI1SK"] = demoS("OPEN#" + date + "#" + order)
	case 1:
		it["status"] = demoS("SHIPPED")
	default:
		p := demoCatalog[step/3%len(demoCatalog)]
		return dynamo.Item{
			"PK": demoS("ORDER#" + order), "SK": demoS("ITEM#1"),
			"sku": demoS(p.sku), "name": demoS(p.name), "qty": demoInt(1), "price": demoMoney(p.cents),
		}
	}
	return it
}

// DriftStep is the write of the demo's traffic that drifts: once, after
// the first cycle, an old code path of the application writes an order
// the old way, with | where the declared key has # (OldOrder), so that
// `dynascope check` on the demo has one drift to find.
const DriftStep = 3

// OldOrder is the drifting write: an order of CUST#42 whose sort key
// is ORDER|date|id, as the application wrote orders before it moved to #.
func OldOrder(id int, day time.Time) dynamo.Item {
	order := "T" + strconv.Itoa(id) + "OLD"
	date := day.Format(time.DateOnly)
	return dynamo.Item{
		"PK": demoS(Partition), "SK": demoS("ORDER|" + date + "|" + order),
		"orderId": demoS(order), "total": demoMoney(990), "itemCount": demoInt(1), "status": demoS("SHIPPED"),
	}
}

// Traffic is the demo application's writes from now on, for
// dynamo.DemoTraffic to send: the step-th write (from 0) of a cycle of
// three, its orders named for the moment (T and a number) and dated
// today, with the one drifting write (OldOrder) at DriftStep.
func Traffic(now time.Time) func(step int) dynamo.Item {
	id, day := int(now.Unix()%100000), now.UTC()
	return func(step int) dynamo.Item {
		switch {
		case step == DriftStep:
			return OldOrder(id, day)
		case step > DriftStep:
			step--
		}
		return trafficWrite(step, id, day)
	}
}
