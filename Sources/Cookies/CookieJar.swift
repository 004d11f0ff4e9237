import CPSL
import Foundation
import HTTPCore

/// Placeholder so the module builds while the jar is written; replaced by the cookie work.
enum CookiesModule {}
