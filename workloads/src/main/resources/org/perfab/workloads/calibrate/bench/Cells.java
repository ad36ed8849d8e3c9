import calib.Subject;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongUnaryOperator;

/** The calibration's cells for bench/Harness.java: the routine its commits change, and three that stay. */
public final class Cells {
    private Cells() {
    }

    /** Returns the cells by name, in the order the harness visits them. */
    public static Map<String, LongUnaryOperator> cells() {
        Map<String, LongUnaryOperator> cells = new LinkedHashMap<>();
        cells.put("target", Subject::target);
        cells.put("steady/a", Subject::steady);
        cells.put("steady/b", Subject::steady);
        cells.put("steady/c", Subject::steady);
        return cells;
    }
}
