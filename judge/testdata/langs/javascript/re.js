throw new Error("broken");
