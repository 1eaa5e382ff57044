// A hand's entry outside the table page (the correction form): the groups with a known sum fill in
// their last member and count as they are changed.

import { watchSums } from "./table/sums.js";

watchSums(document);
