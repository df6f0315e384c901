import javafx.fxml.FXML;
import javafx.fxml.FXMLLoader;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.control.Alert;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.TextField;
import javafx.stage.Stage;

/** The input window: who plays, how many rounds, who moves first; Play opens the board. */
public class InputFrameController {
    @FXML
    private TextField playerXName;
    @FXML
    private TextField playerOName;
    @FXML
    private ComboBox<String> playerXType;
    @FXML
    private ComboBox<String> playerOType;
    @FXML
    private ComboBox<String> numberOfRounds;
    @FXML
    private CheckBox oFirst;

    @FXML
    private void initialize() {
        playerXType.getItems().addAll("Human", "Bot");
        playerXType.setValue("Human");
        playerOType.getItems().addAll("Human", "Bot");
        playerOType.setValue("Bot");
        for (int rounds = 1; rounds <= 28; rounds++) {
            numberOfRounds.getItems().add(String.valueOf(rounds));
        }
        numberOfRounds.setValue("28");
    }

    @FXML
    private void play() throws Exception {
        if (playerXName.getText().isBlank() || playerOName.getText().isBlank()) {
            new Alert(Alert.AlertType.ERROR, "Both players need a name.").showAndWait();
            return;
        }
        FXMLLoader loader = new FXMLLoader(getClass().getResource("OutputFrame.fxml"));
        Parent root = loader.load();
        OutputFrameController game = loader.getController();
        game.start(
                playerXName.getText(),
                playerOName.getText(),
                playerXType.getValue().equals("Bot"),
                playerOType.getValue().equals("Bot"),
                Integer.parseInt(numberOfRounds.getValue()),
                oFirst.isSelected());
        Stage stage = new Stage();
        stage.setTitle("Adjacency: game");
        stage.setScene(new Scene(root));
        stage.show();
    }
}
