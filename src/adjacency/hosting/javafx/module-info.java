/**
 * The driver of a team's JavaFX program ({@link adjacency.fxdriver.Driver}): a module that
 * exports and opens no package, so that the team's code, on the class path in the same JVM,
 * can neither name the driver's classes nor reach their fields by reflection.
 */
module adjacency.fxdriver {
    requires java.desktop;
    requires java.management;
    requires javafx.controls;
}
