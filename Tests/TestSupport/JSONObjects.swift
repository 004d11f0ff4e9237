import Foundation

/// Deep equality of Foundation JSON objects (`[String: Any]`, `[Any]`, `String`, `NSNumber`,
/// `NSNull`) that also requires the same number classes and kinds (`JSONSerialization`'s
/// rules), so a parser that turns `1` into `1.0` or `true` into `1` does not pass.
public func isSameJSONObject(_ lhs: Any, _ rhs: Any) -> Bool {
    switch (lhs, rhs) {
    case (let l as [String: Any], let r as [String: Any]):
        return l.count == r.count && l.allSatisfy { key, value in r[key].map { isSameJSONObject(value, $0) } ?? false }
    case (let l as [Any], let r as [Any]):
        return l.count == r.count && zip(l, r).allSatisfy { isSameJSONObject($0, $1) }
    case (let l as String, let r as String):
        return l == r
    case (is NSNull, is NSNull):
        return true
    case (let l as NSNumber, let r as NSNumber):
        return type(of: l) == type(of: r) && l.isEqual(r) && String(cString: l.objCType) == String(cString: r.objCType)
    default:
        return false
    }
}
