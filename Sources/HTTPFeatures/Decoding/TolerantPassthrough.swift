import Foundation
import HTTPCore

/// A type the backend decodes itself in tolerant mode: it reads the value its own way
/// (``Lenient`` and ``StringNumber`` convert already; dates, data and URLs follow the
/// decoder's strategies).
protocol TolerantPassthrough {}

extension Lenient: TolerantPassthrough {}
extension LenientOptional: TolerantPassthrough {}
extension StringNumber: TolerantPassthrough {}
extension Empty: TolerantPassthrough {}
extension Date: TolerantPassthrough {}
extension Data: TolerantPassthrough {}
extension URL: TolerantPassthrough {}
extension Decimal: TolerantPassthrough {}
